// The two Grafana dashboards, by file name.
{
  grafanaDashboards+:: {
    'offheap-read-path.json': (import 'dashboards/offheap-read-path.libsonnet')($._config),
    'fleet-overview.json': (import 'dashboards/fleet-overview.libsonnet')($._config),
  },
}
