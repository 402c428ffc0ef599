// Kubernetes manifests for the Prometheus Operator and Grafana's dashboard sidecar, from the same
// mixin: the PrometheusRule carries exactly the rendered rule groups, the ConfigMaps exactly the
// rendered dashboards. files: file name -> list of documents; about: one line per file.
function(mixin)
  local c = mixin._config;
  local k = c.k8s;
  local meta(name, labels={}) = {
    name: name,
    namespace: k.namespace,
    labels: { 'app.kubernetes.io/part-of': 'blockscope' } + labels,
  };
  // Scraped targets get job=<jobName> (the Operator's default is <namespace>/<monitor name>), so the
  // rules' and dashboards' job selector finds them.
  local endpoint = {
    port: k.portName,
    path: '/metrics',
    interval: k.scrapeInterval,
    relabelings: [{ targetLabel: 'job', replacement: k.jobName, action: 'replace' }],
  };
  local nativeHistograms = if k.scrapeNativeHistograms then { scrapeNativeHistograms: true } else {};
  {
    about: {
      'podmonitor.yaml': 'Scrapes the agent on every RegionServer pod (Prometheus Operator).',
      'servicemonitor.yaml': 'Alternative to the PodMonitor: scrapes through a Service (Prometheus Operator).',
      'prometheusrule.yaml': 'The recording rules and alerts (Prometheus Operator).',
      'dashboards-configmap.yaml': "The dashboards, for Grafana's sidecar (label grafana_dashboard: \"1\").",
      'regionserver-agent-patch.yaml': 'Adds the agent to a RegionServer StatefulSet: kubectl patch --type strategic (see docs/dashboards.md).',
    },
    files: {
      'podmonitor.yaml': [{
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PodMonitor',
        metadata: meta('blockscope', k.monitorLabels),
        spec: {
          selector: { matchLabels: k.podSelector },
          namespaceSelector: { matchNames: [k.namespace] },
          podMetricsEndpoints: [endpoint],
        } + nativeHistograms,
      }],
      'servicemonitor.yaml': [
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: meta('blockscope-metrics', k.podSelector),
          spec: {
            clusterIP: 'None',
            selector: k.podSelector,
            ports: [{ name: k.portName, port: k.port, targetPort: k.portName }],
          },
        },
        {
          apiVersion: 'monitoring.coreos.com/v1',
          kind: 'ServiceMonitor',
          metadata: meta('blockscope', k.monitorLabels),
          spec: {
            selector: { matchLabels: k.podSelector },
            namespaceSelector: { matchNames: [k.namespace] },
            endpoints: [endpoint],
          } + nativeHistograms,
        },
      ],
      'prometheusrule.yaml': [{
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: meta('blockscope', k.ruleLabels),
        spec: { groups: mixin.prometheusRules.groups + mixin.prometheusAlerts.groups },
      }],
      'dashboards-configmap.yaml': [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: meta('blockscope-dashboard-' + std.strReplace(name, '.json', ''), { grafana_dashboard: '1' })
                    + { annotations: { grafana_folder: k.dashboardFolder } },
          // '' + object is jsonnet's native (fast, compact) JSON; std.manifestJsonEx takes seconds here.
          data: { [name]: '' + mixin.grafanaDashboards[name] },
        }
        for name in std.objectFields(mixin.grafanaDashboards)
      ],
      // A strategic merge patch: an init container copies the jar into a shared emptyDir, the
      // RegionServer JVM picks the agent up from JAVA_TOOL_OPTIONS, and the root file system stays
      // read-only (the agent's bootstrap jar and JFR's repository go to the writable /tmp emptyDir).
      'regionserver-agent-patch.yaml': [{
        spec: {
          template: {
            spec: {
              initContainers: [{
                name: 'blockscope-agent',
                image: k.agentImage,
                command: ['cp', '/blockscope/blockscope-agent.jar', '/agent/blockscope-agent.jar'],
                volumeMounts: [{ name: 'blockscope-agent', mountPath: '/agent' }],
                securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, runAsNonRoot: true },
              }],
              containers: [{
                name: k.regionServerContainer,
                env: [{
                  name: 'JAVA_TOOL_OPTIONS',
                  value: '-javaagent:/opt/blockscope/blockscope-agent.jar=0.0.0.0:%d' % k.port,
                }],
                ports: [{ name: k.portName, containerPort: k.port, protocol: 'TCP' }],
                volumeMounts: [
                  { name: 'blockscope-agent', mountPath: '/opt/blockscope', readOnly: true },
                  { name: 'tmp', mountPath: '/tmp' },
                ],
                securityContext: { readOnlyRootFilesystem: true },
              }],
              volumes: [
                { name: 'blockscope-agent', emptyDir: { sizeLimit: '64Mi' } },
                { name: 'tmp', emptyDir: {} },
              ],
            },
          },
        },
      }],
    },
  }
