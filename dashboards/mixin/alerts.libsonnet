// The alerts. Each carries labels.severity (critical: page now; warning: ticket, act within the day;
// info: look when convenient; the runbook states why each one has its severity), summary,
// description, an absolute runbook_url and a dashboard_url to the panel that confirms it.
// Alert identity (the labels) holds only what stays the same while the problem lasts: the server's
// labels plus a bounded label of the metric (tier, probe, reason, source). Call sites change while a
// problem lasts, so they are annotations.
{
  local c = $._config,
  local forOf(name) = if c.forShort then c.shortFor else c.alertFor[name],
  local keepOf(name) = if c.forShort then c.shortFor else c.keepFiringFor[name],

  // "cluster='%s',job='%s',instance='%s'" and "$labels.cluster $labels.job $labels.instance": the
  // matchers and printf arguments that select the alerting server inside an annotation's query.
  local serverMatchers = std.join(',', ["%s='%%s'" % l for l in c.instanceLabels]),
  local serverArgs = std.join(' ', ['$labels.' + l for l in c.instanceLabels]),
  // The cluster is an external label where each Prometheus of a pair evaluates the alerts: absent from
  // $labels then (Prometheus adds it only when it sends the alert), so it comes from $externalLabels. A
  // ruler over a global querier (Thanos Rule) has it in $labels, from the series.
  local dashboardVars = std.join('&', [
    if l == c.clusterLabel then 'var-cluster={{ or $labels.%s $externalLabels.%s }}' % [l, l]
    else 'var-%s={{ $labels.%s }}' % [l, l]
    for l in c.instanceLabels
  ]),

  local alert(name, severity, expr, panel, summary, description, annotations={}) = {
    alert: name,
    expr: expr,
    [if forOf(name) != '0s' then 'for']: forOf(name),
    [if std.objectHas(c.keepFiringFor, name) then 'keep_firing_for']: keepOf(name),
    labels: { severity: severity },
    annotations: {
      summary: summary,
      description: description,
      runbook_url: c.runbookURLPattern % std.asciiLower(name),
      dashboard_url: '%s/d/blockscope-offheap/offheap-read-path?%s&viewPanel=%d' % [c.grafanaURL, dashboardVars, panel],
    } + annotations,
  },

  // The top sampled copy site of the alerting server, from the recording rule.
  local topCopySite = 'printf "topk(1, instance_site:blockscope_copy_site_bytes:rate1m{' + serverMatchers + '})" ' + serverArgs + ' | query',
  // The alerting server's table and RPC user that copy most (hbase2 profile's context probes; none
  // elsewhere), from the recording rules.
  local topTable = 'printf "topk(1, instance_table:blockscope_copy_to_heap_bytes:rate1m{' + serverMatchers + '})" ' + serverArgs + ' | query',
  local topUser = 'printf "topk(1, instance_user:blockscope_copy_to_heap_bytes:rate1m{' + serverMatchers + '})" ' + serverArgs + ' | query',
  // The table and user whose work made most of the top site's sampled copies (hbase2 profile), in a
  // template where $site is that site; the overflow row (table other) names nobody.
  local siteOwner = 'printf "topk(1, instance_site_owner:blockscope_copy_site_owner_bytes:rate1m{' + serverMatchers
                    + ",site='%s',table!='other'})\" " + serverArgs + ' $site | query',
  // The top site's owner when the agent names one, else the server's top table or user: `what` is
  // "table" or "user", `serverTop` its query.
  local ownerOf(what, serverTop) =
    '{{ with ' + topCopySite + ' }}{{ $site := . | first | label "site" }}{{ with ' + siteOwner + ' }}{{ . | first | label "'
    + what + '" }}{{ else }}{{ with ' + serverTop + ' }}{{ . | first | label "' + what + '" }}{{ else }}unknown{{ end }}{{ end }}'
    + '{{ else }}{{ with ' + serverTop + ' }}{{ . | first | label "' + what + '" }}{{ else }}unknown{{ end }}{{ end }}',
  local serverOwners =
    '{{ with ' + topTable + ' }}table {{ . | first | label "table" }}, user '
    + '{{ with ' + topUser + ' }}{{ . | first | label "user" }}{{ else }}unknown{{ end }}'
    + '{{ else }}table and user unknown (only the hbase2 profile names them){{ end }}',
  // What the copies cost: their share of the server's heap allocation (JFR's estimate; nothing when
  // it is absent or zero), and the young collections a minute that share of the allocation stands for.
  local copyRate = 'instance:blockscope_copy_to_heap_bytes:rate1m{' + serverMatchers + '}',
  local allocRate = '(instance:blockscope_allocated_bytes:rate1m{' + serverMatchers + '} > 0)',
  local heapShare = 'printf "' + copyRate + ' / ' + allocRate + '" ' + serverArgs + ' ' + serverArgs + ' | query',
  local youngPerMinute = 'printf "60 * instance:blockscope_gc_young_collections:rate1m{' + serverMatchers + '} * '
                         + copyRate + ' / ' + allocRate + '" ' + serverArgs + ' ' + serverArgs + ' ' + serverArgs + ' | query',
  // The sites with the most leaks of the alert's kind and reason since the process started (kind=''
  // also selects the series of agents that export no kind: all checkouts).
  local leakSites = 'printf "sort_desc(topk(3, blockscope_block_leaks_total{' + serverMatchers + ",kind='%s',reason='%s'}))\" " + serverArgs + ' $labels.kind $labels.reason | query',
  // The alerting server's allocator pool: buffers in use and the most it creates, and its heap
  // allocations for pool_exhausted since the process started.
  local poolValue(expr) = '{{ with printf "%s" %s | query }}{{ . | first | value | printf "%%.0f" }}{{ else }}?{{ end }}' % [expr, serverArgs],
  local poolInUse = poolValue("sum(blockscope_allocator_pool_buffers{" + serverMatchers + ",state='in_use'})"),
  local poolMax = poolValue('sum(blockscope_allocator_pool_buffers_max{' + serverMatchers + '})'),
  local poolExhausted = poolValue("sum(blockscope_allocator_heap_fallbacks_total{" + serverMatchers + ",reason='pool_exhausted'})"),
  // The site that took the most leaked pool buffers of the alerting server since the process started,
  // over both reasons (a stuck buffer whose take was sampled shows as reason age).
  // The same for leaked block checkouts.
  local topCheckoutSite = 'printf "topk(1, sum by (site) (blockscope_block_leaks_total{' + serverMatchers + ",kind='checkout'}))\" " + serverArgs + ' | query',
  local topBufferSite = 'printf "topk(1, sum by (site) (blockscope_block_leaks_total{' + serverMatchers + ",kind='buffer'}))\" " + serverArgs + ' | query',

  // What to use instead of the top copy site, when it is one of HBase's own stock features: the
  // advice a run on a real RegionServer generated (hbase-copy-advice.json, written and checked by
  // RegionServerFeaturesTest, the same lines as the live page's). Any other site is the
  // application's: the runbook shows the calls that read the cell in place.
  local advice = import 'hbase-copy-advice.json',
  // A site a confirmed finding names links that finding, as the live page does: the live page's own
  // site map (hbase-findings.json, written and checked by the exporter's MixinFindingLinksTest).
  local findings = import 'hbase-findings.json',
  local findingOf(site) =
    if c.findingsBase != '' && std.objectHas(findings, site)
    then '; finding: %s%s#%s' % [c.findingsBase, findings[site].page, findings[site].anchor]
    else '',
  local regex(site) = '^' + std.foldl(function(acc, ch) std.strReplace(acc, ch, '\\' + ch), ['.', '(', ')', '$'], site) + '(:[0-9]+)?$',
  local insteadOf(site) =
    std.join('{{ else ', ['if match `%s` %s }}%s: %s%s' % [regex(a.site), site, a.feature, a.instead, findingOf(a.site)] for a in advice])
    + "{{ else }}the application's own code: read the cell in place (runbook, Fix){{ end }}",

  prometheusAlerts+:: {
    groups+: [
      {
        name: 'blockscope-alerts',
        rules: [
          {
            // Leaks per instance, kind and reason, summed over sites. The agent moves a retired site's counts
            // into site="other", so single site series jump or vanish, but their sum only grows.
            // Recorded in this group, right before the alert that reads it: rules of one group run in
            // order, so the alert always sees this evaluation's sum.
            record: 'instance_kind_reason:blockscope_block_leaks_total:sum',
            expr: 'sum by (%(by)s, kind, reason) (blockscope_block_leaks_total{%(selector)s})' % c,
          },
          // --- Copy to heap ---------------------------------------------------------------------------
          alert(
            'BlockscopeHotCopyPath',
            'warning',
            |||
              instance:blockscope_copy_to_heap_bytes:rate1m{%(recordedSelector)s} > %(hotCopyBytesPerSecond)d
              and on (%(by)s) (blockscope_read_path_mode{%(selector)s, mode="zero-copy"} == 1)
            ||| % c,
            33,
            'Hot copy-to-heap path on {{ $labels.instance }}',
            '{{ $labels.instance }} runs the zero-copy read path but copies {{ $value | humanize1024 }}B/s'
            + ' of cell data onto the heap. Top call site: '
            + '{{ with ' + topCopySite + ' }}{{ . | first | label "site" }} ({{ . | first | value | humanize1024 }}B/s, sampled)'
            + '{{ else }}unknown (no copy sampled yet){{ end }}. '
            + '{{ with ' + heapShare + " }}That is {{ . | first | value | humanizePercentage }} of this server's heap allocation"
            + '{{ with ' + youngPerMinute + ' }} (about {{ . | first | value | printf "%.1f" }} young collections a minute){{ end }}'
            + '{{ else }}Its share of heap allocation is unknown (no JFR allocation estimate){{ end }}; '
            + '{{ with ' + topCopySite + ' }}{{ $site := . | first | label "site" }}{{ with ' + siteOwner + ' }}'
            + 'at that site table {{ . | first | label "table" }}, user {{ . | first | label "user" }}'
            + '{{ else }}' + serverOwners + '{{ end }}{{ else }}' + serverOwners + '{{ end }}.',
            {
              site: '{{ with ' + topCopySite + ' }}{{ . | first | label "site" }}{{ else }}unknown{{ end }}',
              heap_share: '{{ with ' + heapShare + ' }}{{ . | first | value | humanizePercentage }}{{ else }}unknown{{ end }}',
              table: ownerOf('table', topTable),
              user: ownerOf('user', topUser),
              instead: '{{ with ' + topCopySite + ' }}{{ $site := . | first | label "site" }}{{ ' + insteadOf('$site')
                       + '{{ else }}unknown{{ end }}',
            },
          ),

          // --- Block references -----------------------------------------------------------------------
          alert(
            'BlockscopeBlockRefLeak',
            'warning',
            // Reads the per-instance sum: a site retired into "other" moves its count, it adds none.
            // The second branch catches the first leak: the series is born at 1, and increase() cannot
            // see an increment before a series' first sample.
            // One alert per kind: a block checkout (a reader that forgot its give-back) or a buffer
            // taken from the allocator pool and never put back (the pool drains).
            |||
              sum by (%(by)s, kind, reason) (
                  increase(instance_kind_reason:blockscope_block_leaks_total:sum{%(recordedSelector)s}[%(leakWindow)s]) > 0
                or
                  (
                      instance_kind_reason:blockscope_block_leaks_total:sum{%(recordedSelector)s} > 0
                    unless
                      instance_kind_reason:blockscope_block_leaks_total:sum{%(recordedSelector)s} offset %(leakWindow)s
                  )
              )
            ||| % c,
            25,
            '{{ if eq $labels.kind "buffer" }}Pool buffer{{ else }}Block reference{{ end }} leak ({{ $labels.reason }}) on {{ $labels.instance }}',
            '{{ $labels.instance }} detected {{ $value | printf "%.0f" }} leaked'
            + ' {{ if eq $labels.kind "buffer" }}allocator pool buffer(s){{ else }}block reference(s){{ end }} (reason'
            + ' {{ $labels.reason }}) in the last ' + c.leakWindow + '.'
            + ' {{ if eq $labels.kind "buffer" }}A leaked buffer never goes back to the pool: once the pool is spent,'
            + ' every allocation falls back to the heap until the process restarts.{{ else }}Leaked blocks pin their'
            + ' cache memory until the process restarts.{{ end }} Sites with the most leaks since the process started: '
            + '{{ range $i, $s := ' + leakSites + ' }}{{ if $i }}, {{ end }}{{ $s.Labels.site }} ({{ $s.Value | printf "%.0f" }}){{ end }}.',
            { site: '{{ with ' + leakSites + ' }}{{ . | first | label "site" }}{{ else }}unknown{{ end }}' },
          ),

          alert(
            'BlockscopeBlockRefsGrowing',
            'warning',
            // The floor of outstanding references (the lowest value in 15 minutes) is high and the
            // trend over 30 minutes still rises: references are taken and never given back.
            |||
              min_over_time(blockscope_block_refs_outstanding{%(selector)s}[15m]) > %(refsOutstandingFloor)d
              and
              deriv(blockscope_block_refs_outstanding{%(selector)s}[30m]) > 0
            ||| % c,
            23,
            'Outstanding {{ $labels.tier }} block references keep growing on {{ $labels.instance }}',
            '{{ $labels.instance }} has never had fewer than {{ $value | printf "%.0f" }} outstanding'
            + ' {{ $labels.tier }} block references in 15 minutes, and the number is still rising.'
            + ' Something takes references with getBlock and does not return them.',
          ),

          alert(
            'BlockscopeBlockRefsStuck',
            'warning',
            // Exact, not sampled: every checked-out block's entry in the agent's checkout table carries
            // the epoch of its last checkout or return, and the agent counts the references of blocks
            // nobody has touched for its leak.age (60 s by default; counted within leak.age and a half).
            // A reader holds a block for one request; a scanner's lease ends after 60 s of silence.
            // Fires long before the floor of outstanding references has risen for 30 minutes
            // (BlockscopeBlockRefsGrowing), on a one-off leak too.
            |||
              sum by (%(by)s, tier) (blockscope_block_refs_stuck{%(selector)s}) > 0
            ||| % c,
            55,
            '{{ $labels.tier }} block references stuck on {{ $labels.instance }}',
            '{{ $value | printf "%.0f" }} {{ $labels.tier }} block references on {{ $labels.instance }} have not'
            + " been returned, and their blocks not touched by any reader, for longer than the agent's leak.age."
            + ' Their BucketCache slots cannot be freed, even after eviction, until a restart. Site: '
            + '{{ with ' + topCheckoutSite + ' }}{{ . | first | label "site" }} ({{ . | first | value | printf "%.0f" }}'
            + ' sampled leak(s) named there since the process started){{ else }}not named: only a sampled checkout'
            + ' (1 in leak.sample) names its reader; a one-off leak such as a compaction\'s may never be{{ end }}.',
            { site: '{{ with ' + topCheckoutSite + ' }}{{ . | first | label "site" }}{{ else }}unknown{{ end }}' },
          ),

          // --- GC -------------------------------------------------------------------------------------
          alert(
            'BlockscopeGcPauseP99High',
            'warning',
            'instance:blockscope_gc_pause_seconds:p99_rate5m{%(recordedSelector)s} > %(gcPauseP99Seconds)g' % c,
            11,
            'GC pause p99 of {{ $value | humanizeDuration }} on {{ $labels.instance }}',
            'The 99th percentile stop-the-world GC pause on {{ $labels.instance }} has been above'
            + ' %gms for %s (now {{ $value | humanizeDuration }}).' % [c.gcPauseP99Seconds * 1000, forOf('BlockscopeGcPauseP99High')]
            + ' Every request in flight waits that long.',
          ),

          alert(
            'BlockscopeGcPauseTimeHigh',
            'warning',
            'instance:blockscope_gc_pause_time:ratio_rate5m{%(recordedSelector)s} > %(gcPauseTimeRatio)g' % c,
            13,
            '{{ $value | humanizePercentage }} of time in GC pauses on {{ $labels.instance }}',
            '{{ $labels.instance }} has spent more than %g%% of wall-clock time in stop-the-world GC'
            % (c.gcPauseTimeRatio * 100)
            + ' pauses for %s (now {{ $value | humanizePercentage }}).' % forOf('BlockscopeGcPauseTimeHigh'),
          ),

          // --- Bucket cache ---------------------------------------------------------------------------
          alert(
            'BlockscopeBucketCacheAllocationFailures',
            'warning',
            'increase(blockscope_bucket_cache_allocation_failures_total{%(selector)s}[10m]) > 0' % c,
            45,
            'Bucket cache on {{ $labels.instance }} cannot place blocks',
            '{{ $labels.instance }} failed to cache {{ $value | printf "%.0f" }} block(s) in the last'
            + ' 10 minutes because no slot of the right size was free after eviction. Those reads go to'
            + ' storage every time.',
          ),

          alert(
            'BlockscopeBucketCacheNearlyFull',
            'info',
            'blockscope_bucket_cache_used_bytes{%(selector)s} / blockscope_bucket_cache_capacity_bytes{%(selector)s} > %(bucketCacheFullRatio)g' % c,
            44,
            'Bucket cache on {{ $labels.instance }} is {{ $value | humanizePercentage }} full',
            'The bucket cache on {{ $labels.instance }} has had more than %g%% of its capacity in use' % (c.bucketCacheFullRatio * 100)
            + ' for %s (now {{ $value | humanizePercentage }}): every new block needs an' % forOf('BlockscopeBucketCacheNearlyFull')
            + ' eviction first. Harmless alone; with allocation failures it is not.',
          ),

          // --- Buffer allocator ---------------------------------------------------------------------------
          alert(
            'BlockscopeAllocatorPoolDrained',
            'warning',
            // The floor of buffers in use (the fewest at any scrape in the window) against the most the
            // pool creates. A healthy pool's buffers come back between requests, so its floor dips with
            // load, to 0 when idle; a leaked buffer never comes back, so a drained pool's floor stays at
            // the maximum whatever the load, and every allocation beyond falls back to the heap.
            |||
              sum by (%(by)s) (min_over_time(blockscope_allocator_pool_buffers{%(selector)s, state="in_use"}[%(poolDrainWindow)s]))
                / on (%(by)s)
              sum by (%(by)s) (blockscope_allocator_pool_buffers_max{%(selector)s})
                >= %(poolDrainedRatio)g
            ||| % c,
            54,
            'Allocator pool drained on {{ $labels.instance }}',
            'At least {{ $value | humanizePercentage }} of the buffer allocator pool on {{ $labels.instance }}'
            + ' has been in use at every scrape for ' + c.poolDrainWindow + ' (now ' + poolInUse + ' of ' + poolMax
            + ' buffers). Allocations the pool cannot serve fall back to the heap: ' + poolExhausted
            + ' pool_exhausted fallbacks since the process started. Buffers that stay in use while the load'
            + ' is flat or gone are leaked and come back only with a restart.',
          ),

          alert(
            'BlockscopePoolBuffersStuck',
            'warning',
            // Exact, not sampled: the agent keeps each pool buffer's take time and counts the buffers out
            // longer than its leak.age (default 60 s). A pool buffer serves one request for milliseconds,
            // so one out that long is leaked or held by code that does not let go: this fires on the
            // first stuck buffer, long before the pool drains (BlockscopeAllocatorPoolDrained). No for
            // beyond leak.age: see alertFor in config.libsonnet.
            |||
              sum by (%(by)s) (blockscope_allocator_pool_buffers_stuck{%(selector)s}) > 0
            ||| % c,
            53,
            'Allocator pool buffers stuck on {{ $labels.instance }}',
            '{{ $value | printf "%.0f" }} of the ' + poolMax + ' buffers the allocator pool on {{ $labels.instance }}'
            + " may create have been out of the pool longer than the agent's leak.age and not given back (now "
            + poolInUse + ' in use). A pool buffer serves one request for milliseconds: these are leaked, and the'
            + ' pool creates a new buffer for each one lost until it is spent; then every allocation falls back'
            + ' to the heap (' + poolExhausted + ' pool_exhausted fallbacks since the process started). Taking site: '
            + '{{ with ' + topBufferSite + ' }}{{ . | first | label "site" }} ({{ . | first | value | printf "%.0f" }}'
            + ' buffer leak(s) named there since the process started){{ else }}not named yet: the agent now'
            + " captures the site of every new take, so a leak that continues or recurs is named here soon (a"
            + ' one-off leak is counted, never named){{ end }}.',
            { site: '{{ with ' + topBufferSite + ' }}{{ . | first | label "site" }}{{ else }}unknown{{ end }}' },
          ),

          // --- Agent and exporter health --------------------------------------------------------------
          alert(
            'BlockscopeScrapeFailing',
            'warning',
            'up{%(selector)s} == 0' % c,
            6,
            'Prometheus cannot scrape blockscope on {{ $labels.instance }}',
            'Scrapes of {{ $labels.instance }} (job {{ $labels.job }}) have failed for %s:' % forOf('BlockscopeScrapeFailing')
            + " the process is down, the agent's endpoint did not start, or the network, TLS or basic"
            + ' auth settings do not match. All blockscope alerts for it are blind meanwhile.',
          ),

          alert(
            'BlockscopeAgentNotAttached',
            'warning',
            'up{%(selector)s} == 1 unless on (%(by)s) blockscope_agent_info{%(selector)s}' % c,
            3,
            'blockscope agent not attached on {{ $labels.instance }}',
            '{{ $labels.instance }} answers scrapes but exports no blockscope_agent_info: the'
            + ' exporter runs without the agent, so block references, copies and bucket occupancy'
            + ' are not measured.',
          ),

          alert(
            'BlockscopeAgentAdviceErrors',
            'warning',
            // Same first-sample guard as the leak alert: a probe's error counter may be born at 1.
            |||
              sum by (%(by)s, probe) (
                  increase(blockscope_agent_advice_errors_total{%(selector)s}[10m]) > 0
                or
                  (
                      blockscope_agent_advice_errors_total{%(selector)s} > 0
                    unless
                      blockscope_agent_advice_errors_total{%(selector)s} offset 10m
                  )
              )
            ||| % c,
            5,
            'blockscope probe {{ $labels.probe }} throws on {{ $labels.instance }}',
            "The agent's {{ $labels.probe }} advice threw {{ $value | printf \"%.0f\" }} time(s) in"
            + ' the last 10 minutes on {{ $labels.instance }}. The host goes on (errors are'
            + " suppressed), but that probe's numbers are incomplete.",
          ),

          alert(
            'BlockscopeAgentProbeSkipped',
            'info',
            'blockscope_agent_probe_enabled{%(selector)s} == 0' % c,
            4,
            'blockscope probe {{ $labels.probe }} is off on {{ $labels.instance }}',
            "The agent's profile found no target classes for probe {{ $labels.probe }} on"
            + ' {{ $labels.instance }}, so it measures nothing there. Expected only when the server'
            + ' does not have that component (for example no bucket cache).',
          ),

          alert(
            'BlockscopeGcMetricsDegraded',
            'warning',
            // mxbean: JFR could not start (or jfr=off); none: neither JFR nor the MXBeans could.
            // off: the operator left GC metrics to another agent (gc.source=off), nothing to fix.
            'blockscope_gc_source_info{%(selector)s, source!~"jfr|off"} == 1' % c,
            7,
            'GC metrics on {{ $labels.instance }} are degraded (source {{ $labels.source }})',
            '{{ $labels.instance }} reports GC metrics from source {{ $labels.source }} instead of'
            + ' JFR: with mxbean, pause causes, the allocation rate and the JFR series are missing and'
            + ' pauses have millisecond resolution; with none, there are no GC metrics at all.',
          ),

          alert(
            'BlockscopeJfrDataLoss',
            'info',
            'increase(blockscope_jfr_data_loss_bytes_total{%(selector)s}[10m]) > 0' % c,
            8,
            'JFR drops events on {{ $labels.instance }}',
            'JFR lost {{ $value | humanize1024 }}B of events in the last 10 minutes on'
            + ' {{ $labels.instance }}: GC pause counts and allocation rates undercount.',
          ),
        ],
      },
    ],
  },
}
