// The blockscope monitoring mixin: _config, prometheusRules, prometheusAlerts, grafanaDashboards.
// Render with bash dashboards/render.sh (see docs/dashboards.md).
(import 'config.libsonnet')
+ (import 'rules.libsonnet')
+ (import 'alerts.libsonnet')
+ (import 'dashboards.libsonnet')
