// Everything an operator may need to change, in one place. Override with
//   (import 'mixin.libsonnet') + { _config+:: { job: 'hbase-regionserver', clusterLabel: 'cluster' } }
// or, without writing a file: bash dashboards/render.sh --config-override '{job: "hbase-regionserver"}' --out DIR
{
  _config+:: {
    // --- Which series are blockscope's -------------------------------------------------------------
    // The job label matcher of the targets that run the agent: a regular expression, matched with =~.
    job: 'blockscope.*',
    // An extra label matcher for every rule (e.g. 'namespace="hbase"'), or '' for none.
    namespaceSelector: '',
    // The label that tells clusters apart (e.g. 'cluster'), or '' for a single Prometheus per cluster.
    // When set, rules keep it, alerts carry it and the dashboards get a $cluster variable.
    clusterLabel: '',

    // The gc label values of young (minor) collections, as JFR names them (G1's young and mixed
    // collections are both G1New): what the copies' share of heap allocation is priced in.
    youngCollectors: 'G1New|ParallelScavenge|DefNew|ZGC Minor',

    // --- Links in alerts ------------------------------------------------------------------------------
    // Absolute URL of the runbook section of an alert; %s is the alert name in lower case. Required:
    // no address works everywhere, so the render refuses to run without one. Where your operators read
    // docs/runbooks.md: a wiki page, an internal Git host, or any agent's endpoint, which serves them at
    // /runbooks (e.g. 'http://rs1.example.com:9404/runbooks#%s').
    runbookURLPattern: '',
    // Absolute URL of an agent's endpoint (e.g. 'http://rs1.example.com:9404/'), which serves the findings
    // pages (docs/hbase-findings.md, docs/hbase-findings-security.md) at /findings and /findings-security:
    // the hot-copy alert's advice links a site in HBase's own code to its finding there. '' takes the
    // endpoint of runbookURLPattern when that is an agent's /runbooks#%s (it serves /findings beside
    // /runbooks), as in the checked-in render; with the runbooks elsewhere, '' leaves the links out.
    findingsURL: '',
    // Grafana base URL for the alerts' dashboard_url (no trailing slash).
    grafanaURL: 'http://localhost:3000',

    // --- Thresholds ---------------------------------------------------------------------------------
    hotCopyBytesPerSecond: 4 * 1024 * 1024,  // copy-to-heap rate of a zero-copy server that is a problem
    leakWindow: '15m',  // how long a new leak keeps BlockscopeBlockRefLeak firing
    refsOutstandingFloor: 1000,  // floor of outstanding references that, still rising, is a leak
    gcPauseP99Seconds: 0.2,
    gcPauseTimeRatio: 0.05,
    bucketCacheFullRatio: 0.98,
    // Share of the allocator pool's most buffers that, in use at every scrape for poolDrainWindow, is a
    // drained pool: buffers that do not come back (a leak), or a pool too small for the load.
    poolDrainedRatio: 0.95,
    poolDrainWindow: '15m',

    // --- How long a condition must hold (for) and keep firing after it clears (keep_firing_for) --------
    alertFor: {
      BlockscopeHotCopyPath: '10m',
      BlockscopeBlockRefLeak: '1m',
      BlockscopeBlockRefsGrowing: '30m',
      BlockscopeGcPauseP99High: '10m',
      BlockscopeGcPauseTimeHigh: '10m',
      BlockscopeBucketCacheAllocationFailures: '5m',
      BlockscopeBucketCacheNearlyFull: '30m',
      BlockscopeAllocatorPoolDrained: '5m',
      // 0s: the agent counts a buffer as stuck only once it has been out of its pool for leak.age
      // (60 s by default), so the series already holds the condition for a minute; a pool buffer
      // serves one request for milliseconds, and a slow scanner's buffer restarts its age at each
      // of the scanner's RPCs (probe scanner-shipped). Any further for only delays the alert past
      // leak.age + 60 s after the leak (one 15-60 s scrape plus one rule evaluation already use up
      // most of that minute), and the count never dips while the buffer stays out.
      BlockscopePoolBuffersStuck: '0s',
      // 0s, as BlockscopePoolBuffersStuck: the agent counts a reference stuck only once no reader
      // has touched its block for leak.age (plus up to two epochs of leak.age/4), and a slow
      // scanner's RPCs restart its block's age (probe scanner-shipped touches the checkout,
      // RegionServerSlowScannerTest); a further minute would put the alert past leak.age + 60 s.
      BlockscopeBlockRefsStuck: '0s',
      BlockscopeScrapeFailing: '2m',
      BlockscopeAgentNotAttached: '5m',
      BlockscopeAgentAdviceErrors: '0s',
      BlockscopeAgentProbeSkipped: '10m',
      BlockscopeGcMetricsDegraded: '10m',
      BlockscopeJfrDataLoss: '10m',
    },
    // Rates that hover around a threshold must not resolve and re-fire on every dip.
    keepFiringFor: {
      BlockscopeHotCopyPath: '10m',
      BlockscopeGcPauseP99High: '10m',
      BlockscopeGcPauseTimeHigh: '10m',
    },
    // Demos and tests: every for and keep_firing_for becomes shortFor (alerts fire within seconds).
    forShort: false,
    shortFor: '1s',

    // --- Kubernetes (dashboards/k8s, for the Prometheus Operator and Grafana's dashboard sidecar) ---
    k8s: {
      namespace: 'hbase',  // where the RegionServers, the monitors and the rules live
      podSelector: { 'app.kubernetes.io/name': 'hbase-regionserver' },  // the RegionServer pods (and their Service)
      portName: 'blockscope',  // the container/Service port of the agent's endpoint
      port: 9404,
      jobName: 'blockscope',  // the job label the monitors give the targets: must match _config.job
      scrapeInterval: '15s',
      // true adds scrapeNativeHistograms: true to the monitors (Prometheus 3.9+ needs it for native
      // histograms; only Prometheus Operator versions with that field accept it). The rules and
      // dashboards work without it, from the classic series.
      scrapeNativeHistograms: false,
      ruleLabels: { release: 'prometheus' },  // what your Prometheus' ruleSelector matches
      monitorLabels: { release: 'prometheus' },  // what its podMonitorSelector/serviceMonitorSelector match
      dashboardFolder: 'blockscope',  // grafana_folder annotation (sidecar folderAnnotation)
      // An image that holds the agent jar at /blockscope/blockscope-agent.jar (dashboards/k8s/agent-image).
      agentImage: 'registry.example.com/blockscope-agent:0.1.0',
      regionServerContainer: 'regionserver',
    },

    // --- Derived: change the settings above, not these ------------------------------------------------
    // Labels that identify one server in rules and alerts.
    instanceLabels: (if self.clusterLabel != '' then [self.clusterLabel] else []) + ['job', 'instance'],
    by: std.join(', ', self.instanceLabels),
    // Matchers of every raw series the rules read.
    selector: std.join(', ', ['job=~"%s"' % self.job] + (if self.namespaceSelector != '' then [self.namespaceSelector] else [])),
    // Matchers of the rules' own series, which keep only instanceLabels.
    recordedSelector: 'job=~"%s"' % self.job,
    // Where the findings links start: findingsURL, or the agent's endpoint of runbookURLPattern, or '' (none).
    findingsBase:
      if self.findingsURL != '' then
        (if std.endsWith(self.findingsURL, '/') then self.findingsURL else self.findingsURL + '/')
      else if std.endsWith(self.runbookURLPattern, '/runbooks#%s') then
        std.substr(self.runbookURLPattern, 0, std.length(self.runbookURLPattern) - std.length('runbooks#%s'))
      else '',
  },
}
