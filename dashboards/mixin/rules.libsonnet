// Recording rules shared by the fleet dashboard and the alerts: level:metric:operations, each keeping
// the labels that identify a server (_config.instanceLabels). The windows assume a scrape interval of
// at most 15 s. Histogram rules read the native histogram and fall back to the classic _bucket/_sum
// series, so they work on Prometheus 2.x and 3.x whether or not native histograms are scraped.
{
  prometheusRules+:: {
    local c = $._config,
    // The labels of one job's servers together: a server's labels but instance.
    local jobBy = std.join(', ', std.filter(function(l) l != 'instance', c.instanceLabels)),
    groups+: [
      {
        name: 'blockscope-recording',
        rules: [
          {
            // Copy-to-heap bytes/s per instance and component (all components, including whole blocks).
            record: 'instance_component:blockscope_copy_to_heap_bytes:rate1m',
            expr: 'sum by (%(by)s, component) (rate(blockscope_copy_to_heap_bytes_total{%(selector)s}[1m]))' % c,
          },
          {
            // Copy-to-heap bytes/s per instance: what BlockscopeHotCopyPath thresholds.
            record: 'instance:blockscope_copy_to_heap_bytes:rate1m',
            expr: 'sum by (%(by)s) (instance_component:blockscope_copy_to_heap_bytes:rate1m{%(recordedSelector)s})' % c,
          },
          {
            // Sampled copy bytes/s per acquiring call site: names the site in BlockscopeHotCopyPath.
            record: 'instance_site:blockscope_copy_site_bytes:rate1m',
            expr: 'sum by (%(by)s, site) (rate(blockscope_copy_site_bytes_total{%(selector)s}[1m]))' % c,
          },
          {
            // Sampled copy bytes/s per call site and the table and user whose work made them (hbase2
            // profile): names the top site's table and user in BlockscopeHotCopyPath.
            record: 'instance_site_owner:blockscope_copy_site_owner_bytes:rate1m',
            expr: 'sum by (%(by)s, site, table, user) (rate(blockscope_copy_site_owner_bytes_total{%(selector)s}[1m]))' % c,
          },
          {
            // Copy-to-heap bytes/s per instance and table (hbase2 profile): names the table in
            // BlockscopeHotCopyPath; the per-job rule below sums it for the fleet.
            record: 'instance_table:blockscope_copy_to_heap_bytes:rate1m',
            expr: 'sum by (%(by)s, table) (rate(blockscope_copy_to_heap_bytes_by_table_total{%(selector)s}[1m]))' % c,
          },
          {
            // Copy-to-heap bytes/s per instance and RPC user (hbase2 profile): names the user in BlockscopeHotCopyPath.
            record: 'instance_user:blockscope_copy_to_heap_bytes:rate1m',
            expr: 'sum by (%(by)s, user) (rate(blockscope_copy_to_heap_bytes_by_user_total{%(selector)s}[1m]))' % c,
          },
          {
            // Heap allocation bytes/s per instance (JFR's estimate; absent with GC metrics from MXBeans):
            // the denominator of the copies' share of heap allocation.
            record: 'instance:blockscope_allocated_bytes:rate1m',
            expr: 'sum by (%(by)s) (rate(blockscope_allocated_bytes_total{%(selector)s}[1m]))' % c,
          },
          {
            // Young collections per second per instance: the collections a share of the allocation stands for.
            record: 'instance:blockscope_gc_young_collections:rate1m',
            expr: 'sum by (%(by)s) (rate(blockscope_gc_collections_total{%(selector)s, gc=~"%(youngCollectors)s"}[1m]))' % c,
          },
          // Per-job totals the fleet dashboard's cluster trends read: summing 15,000 servers' series on every
          // refresh takes seconds (docs/benchmarks.md, "Fleet dashboard"); these are one series per job.
          {
            record: 'job_component:blockscope_copy_to_heap_bytes:rate1m',
            expr: 'sum by (%(jobBy)s, component) (instance_component:blockscope_copy_to_heap_bytes:rate1m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            // The fleet's tables that copy most: one series per job and table (tables are capped per server).
            record: 'job_table:blockscope_copy_to_heap_bytes:rate1m',
            expr: 'sum by (%(jobBy)s, table) (instance_table:blockscope_copy_to_heap_bytes:rate1m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            record: 'job_tier_result:blockscope_block_cache_gets:rate1m',
            expr: 'sum by (%(jobBy)s, tier, result) (rate(blockscope_block_cache_gets_total{%(selector)s}[1m]))' % (c { jobBy: jobBy }),
          },
          {
            record: 'job_tier:blockscope_block_refs_outstanding:sum',
            expr: 'sum by (%(jobBy)s, tier) (blockscope_block_refs_outstanding{%(selector)s})' % (c { jobBy: jobBy }),
          },
          {
            // 99th percentile stop-the-world pause per instance; NaN when it paused not once in 5 min.
            record: 'instance:blockscope_gc_pause_seconds:p99_rate5m',
            expr: |||
              histogram_quantile(0.99, sum by (%(by)s) (rate(blockscope_gc_pause_seconds{%(selector)s}[5m])))
              or
              histogram_quantile(0.99, sum by (%(by)s, le) (rate(blockscope_gc_pause_seconds_bucket{%(selector)s}[5m])))
            ||| % c,
          },
          {
            // Fraction of wall-clock time spent in stop-the-world pauses (seconds paused per second).
            record: 'instance:blockscope_gc_pause_time:ratio_rate5m',
            expr: |||
              sum by (%(by)s) (histogram_sum(rate(blockscope_gc_pause_seconds{%(selector)s}[5m])))
              or
              sum by (%(by)s) (rate(blockscope_gc_pause_seconds_sum{%(selector)s}[5m]))
            ||| % c,
          },
          // The fleet dashboard's stats and top-10 tables: one series per job, or ten. Behind a global
          // querier (Thanos Query) reading every server's series on each refresh takes seconds at 15,000
          // servers (docs/benchmarks-fleet.md); each Prometheus ranks its own servers here instead, and the
          // dashboard ranks the rankings: the top 10 of each job's top 10 is the fleet's top 10.
          {
            // == bool: a count of 0 is a series too (count() of nothing is no series).
            record: 'job:blockscope_instances_up:count',
            expr: 'sum by (%(jobBy)s) (up{%(selector)s} == bool 1)' % (c { jobBy: jobBy }),
          },
          {
            record: 'job:blockscope_instances_down:count',
            expr: 'sum by (%(jobBy)s) (up{%(selector)s} == bool 0)' % (c { jobBy: jobBy }),
          },
          {
            record: 'job:blockscope_gc_pause_seconds:max_p99_rate5m',
            expr: 'max by (%(jobBy)s) (instance:blockscope_gc_pause_seconds:p99_rate5m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            // A median does not add up across jobs or clusters: the dashboard shows one line per job.
            record: 'job:blockscope_gc_pause_seconds:median_p99_rate5m',
            expr: 'quantile by (%(jobBy)s) (0.5, instance:blockscope_gc_pause_seconds:p99_rate5m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            record: 'instance:blockscope_copy_to_heap_bytes:top10_rate1m',
            expr: 'topk by (%(jobBy)s) (10, instance:blockscope_copy_to_heap_bytes:rate1m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            record: 'instance:blockscope_gc_pause_seconds:top10_p99_rate5m',
            expr: 'topk by (%(jobBy)s) (10, instance:blockscope_gc_pause_seconds:p99_rate5m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            record: 'instance:blockscope_gc_pause_time:top10_ratio_rate5m',
            expr: 'topk by (%(jobBy)s) (10, instance:blockscope_gc_pause_time:ratio_rate5m{%(recordedSelector)s})' % (c { jobBy: jobBy }),
          },
          {
            record: 'instance:blockscope_block_refs_outstanding:top10_sum',
            expr: 'topk by (%(jobBy)s) (10, sum by (%(by)s) (blockscope_block_refs_outstanding{%(selector)s}))' % (c { jobBy: jobBy }),
          },
        ],
      },
    ],
  },
}
