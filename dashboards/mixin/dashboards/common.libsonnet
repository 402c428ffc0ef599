// What both dashboards share: the selectors their queries use and their variables.
{
  selectors(c):: {
    local cluster = if c.clusterLabel != '' then '%s="$cluster", ' % c.clusterLabel else '',
    // The fleet view picks one or more clusters (All by default): behind a global querier such as
    // Thanos Query it ranks the servers of every cluster at once.
    local clusters = if c.clusterLabel != '' then '%s=~"$cluster", ' % c.clusterLabel else '',
    server: cluster + 'job="$job", instance="$instance"',
    jobs: clusters + 'job=~"$job"',
    by: c.by,
    linkVars: (if c.clusterLabel != '' then 'var-cluster=${__data.fields.%s}&' % c.clusterLabel else '')
              + 'var-job=${__data.fields.job}&var-instance=${__data.fields.instance}',
  },

  // datasource, [cluster,] job and, for one server, instance. Every query variable lists only targets
  // that export blockscope_exporter_build_info and match _config's selector, so neither the lists nor
  // "All" reach the targets of other jobs. The fleet view has no instance: its panels read per-job rules.
  variables(c, fleet):: [
    {
      name: 'datasource',
      label: 'Data source',
      type: 'datasource',
      query: 'prometheus',
      refresh: 1,
      regex: '',
      hide: 0,
      includeAll: false,
      multi: false,
      options: [],
    },
  ] + (
    if c.clusterLabel != '' then [
      self.queryVariable('cluster', 'Cluster', 'label_values(blockscope_exporter_build_info{%s}, %s)' % [c.selector, c.clusterLabel], fleet),
    ] else []
  ) + [
    local cluster = if c.clusterLabel != '' then '%s%s"$cluster", ' % [c.clusterLabel, if fleet then '=~' else '='] else '';
    self.queryVariable('job', 'Job', 'label_values(blockscope_exporter_build_info{%s%s}, job)' % [cluster, c.selector], fleet),
  ] + (
    if fleet then [] else [
      local cluster = if c.clusterLabel != '' then '%s="$cluster", ' % c.clusterLabel else '';
      self.queryVariable('instance', 'Instance', 'label_values(blockscope_exporter_build_info{%sjob="$job"}, instance)' % cluster, false),
    ]
  ),

  // A Prometheus query variable; multi-value with All (the listed values, not .*) in the fleet view.
  queryVariable(name, label, query, multi):: {
    name: name,
    label: label,
    type: 'query',
    datasource: { type: 'prometheus', uid: '${datasource}' },
    query: query,
    refresh: 2,
    sort: 1,
    regex: '',
    hide: 0,
    options: [],
    multi: multi,
    includeAll: multi,
  } + (if multi then { current: { text: 'All', value: '$__all' } } else {}),
}
