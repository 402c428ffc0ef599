// Generated once from the Grafana JSON, now the source: edit here, then run bash dashboards/render.sh.
// q() fills the selectors: %(server)s = one server (cluster, job, instance), %(by)s = the labels of one
// server, %(linkVars)s = a data link's server variables.
local common = import 'common.libsonnet';

function(config)
  local q(expr) = expr % common.selectors(config);
  local variables = common.variables(config, fleet=false);
  {
  id: null,
  uid: "blockscope-offheap",
  title: "Offheap read path",
  description: "One server: is its block cache read path really offheap? GC, heap and direct memory; block references and leaks; copy-to-heap bytes by component and call site; bucket occupancy; the buffer allocator, and whose tables leak its buffers or fall back to the heap; agent health.",
  tags: ["blockscope", "jvm", "offheap"],
  editable: true,
  graphTooltip: 1,
  schemaVersion: 41,
  version: 1,
  refresh: "30s",
  time: {
    from: "now-1h",
    to: "now",
  },
  timepicker: {},
  timezone: "browser",
  fiscalYearStartMonth: 0,
  liveNow: false,
  links: [
    {
      title: "blockscope dashboards",
      type: "dashboards",
      tags: ["blockscope"],
      asDropdown: false,
      includeVars: true,
      keepTime: true,
      icon: "external link",
      targetBlank: false,
      tooltip: "",
      url: "",
    },
  ],
  annotations: {
    list: [
      {
        builtIn: 1,
        datasource: {
          type: "grafana",
          uid: "-- Grafana --",
        },
        enable: true,
        hide: true,
        iconColor: "rgba(0, 211, 255, 1)",
        name: "Annotations & Alerts",
        type: "dashboard",
      },
      {
        datasource: {
          type: "prometheus",
          uid: "${datasource}",
        },
        enable: true,
        hide: false,
        iconColor: "red",
        name: "Firing blockscope alerts",
        expr: q("ALERTS{%(server)s, alertstate=\"firing\", alertname=~\"Blockscope.*\"}"),
        step: "1m",
        titleFormat: "{{alertname}}",
        textFormat: "{{alertname}} {{site}}{{tier}}{{probe}}",
        tagKeys: "alertname,severity",
        useValueForTime: false,
      },
    ],
  },
  templating: { list: variables },
  panels: [
    {
      id: 1,
      type: "row",
      title: "Health",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 0,
      },
      panels: [],
    },
    {
      id: 2,
      type: "stat",
      title: "Read-path mode",
      description: "The read-path mode the server's cache reports (blockscope_read_path_mode). Healthy: zero-copy, cells are served straight from the offheap buckets. copy means every cache hit copies its whole block onto the heap (the pre-HBASE-11425 path).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 4,
        x: 0,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: "none",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_read_path_mode{%(server)s} == 1"),
          editorMode: "code",
          legendFormat: "{{mode}}",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "background",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "name",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 3,
      type: "stat",
      title: "Agent",
      description: "Version and target profile of the attached blockscope agent (blockscope_agent_info). Healthy: one value shown. No data means the exporter runs without the agent (alert BlockscopeAgentNotAttached).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 4,
        x: 4,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: "none",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_agent_info{%(server)s}"),
          editorMode: "code",
          legendFormat: "{{version}} ({{profile}})",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "value",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "name",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 4,
      type: "stat",
      title: "Probes enabled",
      description: "Share of the agent profile's probes that found their target classes (blockscope_agent_probe_enabled). Healthy: 100%. Less means a probe was skipped, usually because the server lacks that component (alert BlockscopeAgentProbeSkipped).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 4,
        x: 8,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "red",
                value: null,
              },
              {
                color: "orange",
                value: 0.5,
              },
              {
                color: "green",
                value: 1,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("avg(blockscope_agent_probe_enabled{%(server)s})"),
          editorMode: "code",
          legendFormat: "enabled",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "value",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "auto",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 5,
      type: "stat",
      title: "Advice errors",
      description: "Exceptions thrown inside the agent's advice per second, suppressed so the host goes on (blockscope_agent_advice_errors_total). Healthy: 0. Anything else means a probe's numbers are incomplete (alert BlockscopeAgentAdviceErrors).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 4,
        x: 12,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: "ops",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "red",
                value: 0.0001,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum(rate(blockscope_agent_advice_errors_total{%(server)s}[$__rate_interval])) or vector(0)"),
          editorMode: "code",
          legendFormat: "errors/s",
          range: true,
          instant: false,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "value",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "auto",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 6,
      type: "stat",
      title: "Scrape",
      description: "Whether Prometheus' last scrape of this instance succeeded (up). Healthy: UP. DOWN means every other panel is stale (alert BlockscopeScrapeFailing).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 4,
        x: 16,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: "none",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "red",
                value: null,
              },
              {
                color: "green",
                value: 1,
              },
            ],
          },
          mappings: [
            {
              type: "value",
              options: {
                "0": {
                  text: "DOWN",
                  index: 0,
                },
                "1": {
                  text: "UP",
                  index: 1,
                },
              },
            },
          ],
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("up{%(server)s}"),
          editorMode: "code",
          legendFormat: "up",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "background",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "auto",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 7,
      type: "stat",
      title: "GC metrics source",
      description: "Where the GC metrics come from (blockscope_gc_source_info). Healthy: jfr. mxbean means JFR could not start (or jfr=off): pause causes and allocation rate are missing; none means no GC metrics at all (alert BlockscopeGcMetricsDegraded); off means the exporter was told to leave GC metrics to another agent (gc.source=off, no alert).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 4,
        x: 20,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: "none",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_gc_source_info{%(server)s} == 1"),
          editorMode: "code",
          legendFormat: "{{source}}",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "value",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "name",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 8,
      type: "timeseries",
      title: "JFR event lag and data loss",
      description: "Delay between the newest processed GC event and now (blockscope_jfr_event_lag_seconds), and JFR bytes lost per second (blockscope_jfr_data_loss_bytes_total). Healthy: lag around a second (JFR streams about once a second), no data loss (alert BlockscopeJfrDataLoss).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 6,
        w: 12,
        x: 0,
        y: 5,
      },
      fieldConfig: {
        defaults: {
          unit: "s",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [
          {
            matcher: {
              id: "byName",
              options: "lost bytes/s",
            },
            properties: [
              {
                id: "unit",
                value: "binBps",
              },
              {
                id: "custom.axisPlacement",
                value: "right",
              },
            ],
          },
        ],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_jfr_event_lag_seconds{%(server)s}"),
          editorMode: "code",
          legendFormat: "event lag",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("rate(blockscope_jfr_data_loss_bytes_total{%(server)s}[$__rate_interval])"),
          editorMode: "code",
          legendFormat: "lost bytes/s",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 9,
      type: "timeseries",
      title: "Scrape duration",
      description: "99th percentile time the exporter takes to collect and write one scrape (blockscope_scrape_duration_seconds, classic histogram). Healthy: well under 100ms; a scrape costs the host nothing between scrapes.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 6,
        w: 12,
        x: 12,
        y: 5,
      },
      fieldConfig: {
        defaults: {
          unit: "s",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("histogram_quantile(0.99, sum by (le) (rate(blockscope_scrape_duration_seconds_bucket{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "p99",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum(rate(blockscope_scrape_duration_seconds_sum{%(server)s}[$__rate_interval])) / sum(rate(blockscope_scrape_duration_seconds_count{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "mean",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 10,
      type: "row",
      title: "GC and heap",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 11,
      },
      panels: [],
    },
    {
      id: 11,
      type: "timeseries",
      title: "GC pause p50 / p99",
      description: "Stop-the-world GC pause quantiles from the native histogram blockscope_gc_pause_seconds, all collectors and causes (for ZGC/Shenandoah the pauses inside a cycle, not the cycle). Healthy: p99 well below 200ms and flat; an offheap cache should not make pauses grow with cache size (alert BlockscopeGcPauseP99High).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 0,
        y: 12,
      },
      fieldConfig: {
        defaults: {
          unit: "s",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
            thresholdsStyle: {
              mode: "dashed",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "red",
                value: 0.2,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("histogram_quantile(0.99, sum by (%(by)s) (rate(blockscope_gc_pause_seconds{%(server)s}[$__rate_interval]))) or histogram_quantile(0.99, sum by (%(by)s, le) (rate(blockscope_gc_pause_seconds_bucket{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "p99",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("histogram_quantile(0.5, sum by (%(by)s) (rate(blockscope_gc_pause_seconds{%(server)s}[$__rate_interval]))) or histogram_quantile(0.5, sum by (%(by)s, le) (rate(blockscope_gc_pause_seconds_bucket{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "p50",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 12,
      type: "timeseries",
      title: "GC pauses per second",
      description: "Stop-the-world pauses and completed collections per second by collector (histogram_count of blockscope_gc_pause_seconds, blockscope_gc_collections_total). Healthy: a low, steady rate of young pauses; a rising rate under the same load means more heap allocation, often from copies onto the heap.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 8,
        y: 12,
      },
      fieldConfig: {
        defaults: {
          unit: "ops",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (gc) (histogram_count(rate(blockscope_gc_pause_seconds{%(server)s}[$__rate_interval]))) or sum by (gc) (rate(blockscope_gc_pause_seconds_count{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{gc}} pauses",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum by (gc) (rate(blockscope_gc_collections_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{gc}} collections",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 13,
      type: "timeseries",
      title: "Time paused",
      description: "Fraction of wall-clock time spent in stop-the-world pauses, by cause (histogram_sum of blockscope_gc_pause_seconds per second). Healthy: under 1-2%; above 5% for 10 minutes fires BlockscopeGcPauseTimeHigh.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 16,
        y: 12,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 25,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "normal",
              group: "A",
            },
            thresholdsStyle: {
              mode: "dashed",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "red",
                value: 0.05,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (cause) (histogram_sum(rate(blockscope_gc_pause_seconds{%(server)s}[$__rate_interval]))) or sum by (cause) (rate(blockscope_gc_pause_seconds_sum{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{cause}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 14,
      type: "timeseries",
      title: "Heap allocation rate",
      description: "Bytes allocated on the heap per second, estimated from JFR allocation samples (blockscope_allocated_bytes_total). Healthy: proportional to request rate and steady; jumps together with copy-to-heap bytes/s mean the read path copies.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 0,
        y: 20,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("rate(blockscope_allocated_bytes_total{%(server)s}[$__rate_interval])"),
          editorMode: "code",
          legendFormat: "allocated",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 15,
      type: "timeseries",
      title: "Heap used before / after GC",
      description: "Heap used at the start and end of the last collection, per collector (blockscope_gc_heap_used_before/after_bytes), and heap in use now (jvm_memory_used_bytes). Healthy: the after-GC line is flat (the live set); a rising after-GC floor means something retains heap, such as copied blocks.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 8,
        y: 20,
      },
      fieldConfig: {
        defaults: {
          unit: "bytes",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_gc_heap_used_after_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "after {{gc}}",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("blockscope_gc_heap_used_before_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "before {{gc}}",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "C",
          expr: q("sum(jvm_memory_used_bytes{%(server)s, area=\"heap\"})"),
          editorMode: "code",
          legendFormat: "heap used now",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 16,
      type: "timeseries",
      title: "Direct and mapped memory",
      description: "Memory of the JVM's direct and mapped buffer pools (jvm_buffer_pool_used_bytes / capacity). Healthy: flat at about the offheap bucket cache size plus I/O buffers; steady growth without cache growth is a buffer leak.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 16,
        y: 20,
      },
      fieldConfig: {
        defaults: {
          unit: "bytes",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("jvm_buffer_pool_used_bytes{%(server)s, pool=~\"direct|mapped\"}"),
          editorMode: "code",
          legendFormat: "{{pool}} used",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("jvm_buffer_pool_capacity_bytes{%(server)s, pool=~\"direct|mapped\"}"),
          editorMode: "code",
          legendFormat: "{{pool}} capacity",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 20,
      type: "row",
      title: "Block cache references",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 28,
      },
      panels: [],
    },
    {
      id: 21,
      type: "timeseries",
      title: "Hit ratio by tier",
      description: "Share of getBlock calls that hit, per cache tier (l1 = LRU on heap, l2 = bucket cache), from blockscope_block_cache_gets_total. Healthy: stable and high for the working set (often above 90% for l1+l2 together); a drop means more reads go to storage.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 0,
        y: 29,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          max: 1,
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (tier) (rate(blockscope_block_cache_gets_total{%(server)s, result=\"hit\"}[$__rate_interval])) / sum by (tier) (rate(blockscope_block_cache_gets_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{tier}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 22,
      type: "timeseries",
      title: "getBlock and returnBlock rate",
      description: "getBlock calls per second by tier and result, and returnBlock calls per second by tier (blockscope_block_cache_gets_total, blockscope_block_cache_returns_total). Healthy: returns track hits one for one; hits without returns pile up as outstanding references.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 8,
        y: 29,
      },
      fieldConfig: {
        defaults: {
          unit: "ops",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (tier, result) (rate(blockscope_block_cache_gets_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{tier}} {{result}}",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum by (tier) (rate(blockscope_block_cache_returns_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{tier}} returns",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 23,
      type: "timeseries",
      title: "Outstanding block references",
      description: "Blocks handed out by getBlock and not yet returned, per tier (blockscope_block_refs_outstanding). Healthy: follows the number of requests in flight and drops to zero when the server is idle; a floor that keeps rising is a reference leak (alert BlockscopeBlockRefsGrowing).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 16,
        y: 29,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (tier) (blockscope_block_refs_outstanding{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{tier}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 24,
      type: "timeseries",
      title: "Block hold time p50 / p99",
      description: "Time from getBlock to returnBlock for sampled checkouts, per tier, from the native histogram blockscope_block_hold_seconds. Healthy: about one request's latency; a p99 of seconds means responses hold blocks while they stream or something forgets to return them.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 37,
      },
      fieldConfig: {
        defaults: {
          unit: "s",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("histogram_quantile(0.99, sum by (tier) (rate(blockscope_block_hold_seconds{%(server)s}[$__rate_interval]))) or histogram_quantile(0.99, sum by (tier, le) (rate(blockscope_block_hold_seconds_bucket{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "p99 {{tier}}",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("histogram_quantile(0.5, sum by (tier) (rate(blockscope_block_hold_seconds{%(server)s}[$__rate_interval]))) or histogram_quantile(0.5, sum by (tier, le) (rate(blockscope_block_hold_seconds_bucket{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "p50 {{tier}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 25,
      type: "table",
      title: "Leaks by acquiring site",
      description: "Sampled block checkouts (kind checkout) and buffers taken from the allocator pool (kind buffer) that were garbage collected without being given back (reason gc) or held longer than the agent's leak.age (reason age) in the selected time range, by the call site that acquired them (blockscope_block_leaks_total; a site's first leaks count too, though increase() alone cannot see a counter's first sample). Healthy: empty. Any row is a leak to fix at that site (alert BlockscopeBlockRefLeak); buffer leaks drain the pool (panel Allocator pool buffers).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 37,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
          custom: {
            align: "auto",
            cellOptions: {
              type: "auto",
            },
            inspect: false,
          },
        },
        overrides: [
          {
            matcher: {
              id: "byName",
              options: "Leaks",
            },
            properties: [
              {
                id: "decimals",
                value: 0,
              },
            ],
          },
        ],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (site, kind, reason) ((increase(blockscope_block_leaks_total{%(server)s}[$__range]) and blockscope_block_leaks_total{%(server)s} offset $__range) or (blockscope_block_leaks_total{%(server)s} unless blockscope_block_leaks_total{%(server)s} offset $__range)) > 0"),
          editorMode: "code",
          range: false,
          instant: true,
          format: "table",
        },
      ],
      options: {
        showHeader: true,
        cellHeight: "sm",
        frameIndex: 0,
        sortBy: [
          {
            displayName: "Leaks",
            desc: true,
          },
        ],
      },
      transformations: [
        {
          id: "organize",
          options: {
            excludeByName: {
              Time: true,
            },
            renameByName: {
              site: "Acquiring site",
              kind: "Kind",
              reason: "Reason",
              Value: "Leaks",
            },
            indexByName: {
              site: 0,
              kind: 1,
              reason: 2,
              Value: 3,
            },
          },
        },
      ],
    },
    {
      id: 30,
      type: "row",
      title: "Copy to heap",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 45,
      },
      panels: [],
    },
    {
      id: 31,
      type: "timeseries",
      title: "Copy-to-heap bytes/s by component",
      description: "Bytes copied from offheap cells onto the heap per second by getXxxArray() component, plus whole-block copies (block) of the copy read path (blockscope_copy_to_heap_bytes_total). Healthy on a zero-copy server: near zero. Sustained MiB/s means some code calls getValueArray() and friends on offheap cells (alert BlockscopeHotCopyPath).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 46,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 25,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "normal",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (component) (rate(blockscope_copy_to_heap_bytes_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{component}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 32,
      type: "timeseries",
      title: "Copy-to-heap calls/s by component",
      description: "getXxxArray() calls on buffer-backed cells per second by component, and whole-block copies (blockscope_copy_to_heap_total). Healthy on a zero-copy server: near zero; the calls show how many cells are touched, the bytes panel how much they cost.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 46,
      },
      fieldConfig: {
        defaults: {
          unit: "ops",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 25,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "normal",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (component) (rate(blockscope_copy_to_heap_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{component}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 33,
      type: "table",
      title: "Hottest copy sites",
      description: "Call sites that copy cell data onto the heap, averaged over the selected time range: the first frame outside the cell and cache classes, found by a sampled stack walk and scaled by the sampling rate (blockscope_copy_site_bytes_total, blockscope_copy_site_calls_total). Healthy: empty or only tiny rates. The top row is the site named by BlockscopeHotCopyPath.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 24,
        x: 0,
        y: 54,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
          custom: {
            align: "auto",
            cellOptions: {
              type: "auto",
            },
            inspect: false,
          },
        },
        overrides: [
          {
            matcher: {
              id: "byName",
              options: "Calls/s",
            },
            properties: [
              {
                id: "unit",
                value: "ops",
              },
            ],
          },
          {
            matcher: {
              id: "byName",
              options: "Call site",
            },
            properties: [
              {
                id: "unit",
                value: "string",
              },
            ],
          },
        ],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (site) (rate(blockscope_copy_site_bytes_total{%(server)s}[$__range]))"),
          editorMode: "code",
          range: false,
          instant: true,
          format: "table",
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum by (site) (rate(blockscope_copy_site_calls_total{%(server)s}[$__range]))"),
          editorMode: "code",
          range: false,
          instant: true,
          format: "table",
        },
      ],
      options: {
        showHeader: true,
        cellHeight: "sm",
        frameIndex: 0,
        sortBy: [
          {
            displayName: "Bytes/s",
            desc: true,
          },
        ],
      },
      transformations: [
        {
          id: "merge",
          options: {},
        },
        {
          id: "organize",
          options: {
            excludeByName: {
              Time: true,
            },
            renameByName: {
              site: "Call site",
              "Value #A": "Bytes/s",
              "Value #B": "Calls/s",
            },
            indexByName: {
              site: 0,
              "Value #A": 1,
              "Value #B": 2,
            },
          },
        },
        {
          id: "sortBy",
          options: {
            fields: {},
            sort: [
              {
                field: "Bytes/s",
                desc: true,
              },
            ],
          },
        },
      ],
    },
    {
      id: 34,
      type: "timeseries",
      title: "Copy-to-heap bytes/s by table (HBase)",
      description: "Bytes copied onto the heap per second by the table (namespace:table) whose work made them, and component (blockscope_copy_to_heap_bytes_by_table_total: an RPC call's gets, scans and multis, or a compaction or flush of the table's regions). Healthy on a zero-copy server: near zero. When BlockscopeHotCopyPath fires, the top band is the table it names. (none): copies outside any table; other: tables past the agent's tables cap (default 50). HBase (hbase2 profile) only: the example server exports no table.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 0,
        y: 62,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 25,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "normal",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (table, component) (rate(blockscope_copy_to_heap_bytes_by_table_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{table}} {{component}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 35,
      type: "timeseries",
      title: "Copy-to-heap bytes/s by user (HBase)",
      description: "Bytes copied onto the heap per second by the RPC user whose call made them (blockscope_copy_to_heap_bytes_by_user_total); (compaction) and (flush) for the server's own work, (none) outside any call, other for users past the agent's users cap (default 50). Healthy on a zero-copy server: near zero. When BlockscopeHotCopyPath fires, the top band is the user it names. HBase (hbase2 profile) only: the example server exports no user.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 8,
        y: 62,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 25,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "normal",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (user) (rate(blockscope_copy_to_heap_bytes_by_user_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "{{user}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 36,
      type: "timeseries",
      title: "Copies' share of heap allocation",
      description: "What the copies cost: copy-to-heap bytes as a share of the server's heap allocation (blockscope_copy_to_heap_bytes_total / blockscope_allocated_bytes_total, JFR's sampled estimate), and, on the right axis, the young collections a minute that share of the allocation stands for (the share times the rate of young collections, blockscope_gc_collections_total of G1New, ParallelScavenge, DefNew, ZGC Minor). Healthy on a zero-copy server: a few percent at most. The allocation is JFR's sampled estimate, so the share is an estimate too; no data with GC metrics from MXBeans (no estimate) or without allocation. BlockscopeHotCopyPath quotes the same share.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 16,
        y: 62,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 25,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [
          {
            matcher: {
              id: "byName",
              options: "young collections a minute from copies",
            },
            properties: [
              {
                id: "unit",
                value: "short",
              },
              {
                id: "custom.axisPlacement",
                value: "right",
              },
            ],
          },
        ],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum(rate(blockscope_copy_to_heap_bytes_total{%(server)s}[$__rate_interval])) / (sum(rate(blockscope_allocated_bytes_total{%(server)s}[$__rate_interval])) > 0)"),
          editorMode: "code",
          legendFormat: "share of heap allocation",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("60 * sum(rate(blockscope_gc_collections_total{%(server)s, gc=~\"" + config.youngCollectors + "\"}[$__rate_interval])) * sum(rate(blockscope_copy_to_heap_bytes_total{%(server)s}[$__rate_interval])) / (sum(rate(blockscope_allocated_bytes_total{%(server)s}[$__rate_interval])) > 0)"),
          editorMode: "code",
          legendFormat: "young collections a minute from copies",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 40,
      type: "row",
      title: "Bucket cache",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 70,
      },
      panels: [],
    },
    {
      id: 41,
      type: "bargauge",
      title: "Slot occupancy per block-size class",
      description: "Share of slots in use per block-size class of the bucket allocator (blockscope_bucket_slots, size_class = slot size in bytes). Healthy: the classes your block sizes map to are well used; a class near 100% while others sit empty means the configured bucket sizes do not fit the data (see waste).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 10,
        w: 8,
        x: 0,
        y: 71,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "orange",
                value: 0.9,
              },
              {
                color: "red",
                value: 0.98,
              },
            ],
          },
          min: 0,
          max: 1,
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (size_class) (blockscope_bucket_slots{%(server)s, state=\"used\"}) / sum by (size_class) (blockscope_bucket_slots{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{size_class}} B",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        displayMode: "gradient",
        orientation: "horizontal",
        showUnfilled: true,
        valueMode: "color",
        namePlacement: "auto",
        sizing: "auto",
        minVizHeight: 16,
        minVizWidth: 8,
        maxVizHeight: 300,
        legend: {
          showLegend: false,
          displayMode: "list",
          placement: "bottom",
          calcs: [],
        },
      },
    },
    {
      id: 42,
      type: "bargauge",
      title: "Used and free slots per block-size class",
      description: "Slot counts per block-size class and state (blockscope_bucket_slots). Healthy: free slots exist in the classes that receive blocks; zero free slots in a busy class forces evictions or allocation failures.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 10,
        w: 8,
        x: 8,
        y: 71,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (size_class, state) (blockscope_bucket_slots{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{size_class}} B {{state}}",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        displayMode: "gradient",
        orientation: "horizontal",
        showUnfilled: true,
        valueMode: "color",
        namePlacement: "auto",
        sizing: "auto",
        minVizHeight: 16,
        minVizWidth: 8,
        maxVizHeight: 300,
        legend: {
          showLegend: false,
          displayMode: "list",
          placement: "bottom",
          calcs: [],
        },
      },
    },
    {
      id: 43,
      type: "stat",
      title: "Bucket cache used",
      description: "Bytes held by cached blocks as a share of the bucket cache's capacity (blockscope_bucket_cache_used_bytes / blockscope_bucket_cache_capacity_bytes). Healthy: fills up to its working set and stays below 98%; above that every new block needs an eviction (alert BlockscopeBucketCacheNearlyFull).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 4,
        w: 8,
        x: 16,
        y: 71,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "orange",
                value: 0.9,
              },
              {
                color: "red",
                value: 0.98,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_bucket_cache_used_bytes{%(server)s} / blockscope_bucket_cache_capacity_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "used",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "value",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "auto",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 46,
      type: "stat",
      title: "Bucket cache waste",
      description: "Slot bytes not filled by the blocks in them, as a share of used bytes (blockscope_bucket_cache_wasted_bytes / blockscope_bucket_cache_used_bytes). Healthy: under 10-20%; more means the bucket sizes are far from the real block sizes. Example server only: HBase's BucketCache keeps no wasted-bytes figure, so a RegionServer shows no data here.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 6,
        w: 8,
        x: 16,
        y: 75,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "orange",
                value: 0.2,
              },
              {
                color: "red",
                value: 0.4,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_bucket_cache_wasted_bytes{%(server)s} / blockscope_bucket_cache_used_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "waste",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        colorMode: "value",
        graphMode: "none",
        justifyMode: "auto",
        orientation: "auto",
        textMode: "auto",
        wideLayout: true,
        showPercentChange: false,
        percentChangeColorMode: "standard",
      },
    },
    {
      id: 44,
      type: "timeseries",
      title: "Bucket cache capacity, used and wasted",
      description: "Bytes the bucket cache manages, bytes held by cached blocks (slot sizes) and slot bytes not filled by blocks (blockscope_bucket_cache_*_bytes). Healthy: used grows to the working set and flattens below capacity; wasted stays a small part of used; used above 98% of capacity for 30 minutes fires BlockscopeBucketCacheNearlyFull. Example server only: the wasted line (HBase's BucketCache keeps no wasted-bytes figure).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 81,
      },
      fieldConfig: {
        defaults: {
          unit: "bytes",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("blockscope_bucket_cache_capacity_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "capacity",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("blockscope_bucket_cache_used_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "used",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "C",
          expr: q("blockscope_bucket_cache_wasted_bytes{%(server)s}"),
          editorMode: "code",
          legendFormat: "wasted",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 45,
      type: "timeseries",
      title: "Bucket cache allocation failures",
      description: "Blocks per second that could not be cached because no slot was free after eviction (blockscope_bucket_cache_allocation_failures_total). Healthy: 0. Anything else means reads of those blocks go to storage every time (alert BlockscopeBucketCacheAllocationFailures). Example server only: HBase counts no failed slot allocation (it only logs them), so a RegionServer shows no data here.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 81,
      },
      fieldConfig: {
        defaults: {
          unit: "ops",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
            thresholdsStyle: {
              mode: "dashed",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
              {
                color: "red",
                value: 0.0001,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("rate(blockscope_bucket_cache_allocation_failures_total{%(server)s}[$__rate_interval])"),
          editorMode: "code",
          legendFormat: "failures/s",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 47,
      type: "bargauge",
      title: "Used and free bytes per block-size class",
      description: "Bytes of used and free slots per block-size class (blockscope_bucket_bytes). Healthy: most bytes sit in the classes your blocks need; many free bytes in classes nobody uses is capacity the cache cannot use.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 24,
        x: 0,
        y: 89,
      },
      fieldConfig: {
        defaults: {
          unit: "bytes",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (size_class, state) (blockscope_bucket_bytes{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{size_class}} B {{state}}",
          range: false,
          instant: true,
        },
      ],
      options: {
        reduceOptions: {
          calcs: ["lastNotNull"],
          fields: "",
          values: false,
        },
        displayMode: "gradient",
        orientation: "vertical",
        showUnfilled: true,
        valueMode: "color",
        namePlacement: "auto",
        sizing: "auto",
        minVizHeight: 16,
        minVizWidth: 8,
        maxVizHeight: 300,
        legend: {
          showLegend: false,
          displayMode: "list",
          placement: "bottom",
          calcs: [],
        },
      },
    },
    {
      id: 50,
      type: "row",
      title: "Buffer allocator (HBase 2.3+)",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 97,
      },
      panels: [],
    },
    {
      id: 51,
      type: "timeseries",
      title: "Heap allocation ratio: HBase's and by reason (HBase 2.3+)",
      description: "Share of the bytes HBase's ByteBuffAllocators handed out that came from the heap. HBase's ratio (its ByteBuffAllocatorHeapAllocationRatio, from its own counters: blockscope_allocator_bytes_total) beside the agent's count of the same heap bytes split by why (blockscope_allocator_heap_fallback_bytes_total): the reasons add up to HBase's ratio. Healthy: below_min_size only (small requests, by design). pool_exhausted means the pool had no buffer left: raise hbase.server.allocator.max.buffer.count (see the sites panel). pool_disabled is HBase's shared pool-less allocator. Empty on servers without a ByteBuffAllocator (the example server, HBase before 2.3).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 98,
      },
      fieldConfig: {
        defaults: {
          unit: "percentunit",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum(rate(blockscope_allocator_bytes_total{%(server)s, source=\"heap\"}[$__rate_interval])) / sum(rate(blockscope_allocator_bytes_total{%(server)s}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "HBase's ratio",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum by (reason) (rate(blockscope_allocator_heap_fallback_bytes_total{%(server)s}[$__rate_interval])) / scalar(sum(rate(blockscope_allocator_bytes_total{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "ours: {{reason}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 52,
      type: "timeseries",
      title: "Heap fallback bytes by call site (HBase 2.3+)",
      description: "Bytes per second allocated on the heap instead of the pool, by the first frame outside the allocator and reason, top 10 (blockscope_allocator_heap_fallback_site_bytes_total, sampled like copies). Healthy: no pool_exhausted site. A pool_exhausted site says which path ran the pool dry: RPC responses (ByteBufferListOutputStream), block reads (HFileBlock), requests. Empty on servers without a ByteBuffAllocator.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 98,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("topk(10, sum by (site, reason) (rate(blockscope_allocator_heap_fallback_site_bytes_total{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "{{reason}} {{site}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 53,
      type: "timeseries",
      title: "Allocator pool buffers (HBase 2.3+)",
      description: "Buffers of the allocator's pool in use and free, against the most it will create (blockscope_allocator_pool_buffers, blockscope_allocator_pool_buffers_max), and the buffers out of the pool longer than the agent's leak.age, every take counted (blockscope_allocator_pool_buffers_stuck). Healthy: in use stays below the maximum and stuck is 0; in use at the maximum while pool_exhausted fallbacks grow means the pool is too small for the load. Stuck above 0 is buffers leaked (or held by code that does not let go): BlockscopePoolBuffersStuck fires, the panel Pool buffers stuck by table names the table they were taken for, and the panel Leaks by acquiring site (kind buffer) names the site that took them once the agent has captured it. Empty on servers without a ByteBuffAllocator.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 7,
        w: 12,
        x: 0,
        y: 106,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (state) (blockscope_allocator_pool_buffers{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{state}}",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum(blockscope_allocator_pool_buffers_max{%(server)s})"),
          editorMode: "code",
          legendFormat: "max",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "C",
          expr: q("sum(blockscope_allocator_pool_buffers_stuck{%(server)s})"),
          editorMode: "code",
          legendFormat: "stuck (out longer than leak.age)",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 55,
      type: "timeseries",
      title: "Stuck block references (HBase 2.3+)",
      description: "Block references (BucketCache hits a reader must release) not yet returned, per tier (blockscope_block_refs_outstanding), and of those the references to blocks no reader has checked out or given back for the agent's leak.age, every checkout counted (blockscope_block_refs_stuck). Healthy: stuck is 0. Stuck above 0 is references leaked, each pinning its BucketCache slot until a restart: BlockscopeBlockRefsStuck fires, and the panel Leaks by acquiring site (kind checkout) names the reader when one of its checkouts was sampled. Empty on servers whose profile does not match releases to checkouts.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 7,
        w: 12,
        x: 12,
        y: 106,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum by (tier) (blockscope_block_refs_stuck{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{tier}} stuck (untouched longer than leak.age)",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum by (tier) (blockscope_block_refs_outstanding{%(server)s})"),
          editorMode: "code",
          legendFormat: "{{tier}} outstanding",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 54,
      type: "timeseries",
      title: "Allocator pool drain: buffers in use vs max, pool_exhausted fallbacks (HBase 2.3+)",
      description: "Buffers of the allocator's pool in use against the most it creates (blockscope_allocator_pool_buffers{state=\"in_use\"}, blockscope_allocator_pool_buffers_max), and heap allocations per second because the pool had no buffer left (blockscope_allocator_heap_fallbacks_total{reason=\"pool_exhausted\"}, right axis). Healthy: in use follows the load and falls back when it drops (to 0 when idle); pool_exhausted fallbacks, if any, only at peaks. In use pinned at the maximum whatever the load, with pool_exhausted fallbacks whenever there is load, is a drained pool: BlockscopeAllocatorPoolDrained fires when at least 95% of the maximum has been in use at every scrape for 15 minutes. Empty on servers without a ByteBuffAllocator.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 24,
        x: 0,
        y: 113,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [
          {
            matcher: {
              id: "byFrameRefID",
              options: "C",
            },
            properties: [
              {
                id: "unit",
                value: "ops",
              },
              {
                id: "custom.axisPlacement",
                value: "right",
              },
              {
                id: "custom.drawStyle",
                value: "bars",
              },
            ],
          },
        ],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("sum(blockscope_allocator_pool_buffers{%(server)s, state=\"in_use\"})"),
          editorMode: "code",
          legendFormat: "in use",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("sum(blockscope_allocator_pool_buffers_max{%(server)s})"),
          editorMode: "code",
          legendFormat: "max",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "C",
          expr: q("sum(rate(blockscope_allocator_heap_fallbacks_total{%(server)s, reason=\"pool_exhausted\"}[$__rate_interval]))"),
          editorMode: "code",
          legendFormat: "pool_exhausted fallbacks/s",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 56,
      type: "row",
      title: "Whose leaks and heap fallbacks (HBase 2.3+)",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 121,
      },
      panels: [],
    },
    {
      id: 57,
      type: "timeseries",
      title: "Pool buffers stuck by table (HBase 2.3+)",
      description: "Allocator pool buffers out of the pool longer than the agent's leak.age, by the table (namespace:table) the thread that took them worked for, top 10 (blockscope_allocator_pool_buffers_stuck_by_table: every take counted, not sampled; the tables add up to the panel Allocator pool buffers' stuck line). A flush's or a compaction's buffers count under its region's table; (none): taken outside any table (an RPC request read before its call named a region); other: tables past the agent's tables cap (default 50). Healthy: one line, none stuck, at 0 (the server's total, shown while no table has a stuck buffer). A table line above 0 is whose reads or writes leak the pool's buffers: BlockscopePoolBuffersStuck fires, and the table says which family's settings to look at first (runbook). Empty on servers without a ByteBuffAllocator.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 0,
        y: 122,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          decimals: 0,
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          // or on(): the server's total (0) only while no table has a stuck buffer, so healthy reads 0, not No data.
          expr: q("topk(10, sum by (table) (blockscope_allocator_pool_buffers_stuck_by_table{%(server)s})) or on() label_replace(sum(blockscope_allocator_pool_buffers_stuck{%(server)s}), \"table\", \"none stuck\", \"\", \"\")"),
          editorMode: "code",
          legendFormat: "{{table}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
    {
      id: 58,
      type: "table",
      title: "Leaks by table (HBase 2.3+)",
      description: "Sampled block checkouts (kind checkout) and pool buffers (kind buffer) leaked in the selected time range, by the table (namespace:table) the thread that took them worked for, top 10 (blockscope_block_leaks_by_table_total: the leaks of the panel Leaks by acquiring site, counted by table instead of by site; a table's first leaks count too). (none): taken outside any table; other: tables past the agent's tables cap (default 50). Healthy: empty. A row is the table whose reads (or flushes and compactions) leak: its site is in Leaks by acquiring site, the alert is BlockscopeBlockRefLeak. Empty on servers without a ByteBuffAllocator.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 8,
        y: 122,
      },
      fieldConfig: {
        defaults: {
          unit: "short",
          color: {
            mode: "thresholds",
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
          custom: {
            align: "auto",
            cellOptions: {
              type: "auto",
            },
            inspect: false,
          },
        },
        overrides: [
          {
            matcher: {
              id: "byName",
              options: "Leaks",
            },
            properties: [
              {
                id: "decimals",
                value: 0,
              },
            ],
          },
        ],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("topk(10, sum by (table, kind) ((increase(blockscope_block_leaks_by_table_total{%(server)s}[$__range]) and blockscope_block_leaks_by_table_total{%(server)s} offset $__range) or (blockscope_block_leaks_by_table_total{%(server)s} unless blockscope_block_leaks_by_table_total{%(server)s} offset $__range)) > 0)"),
          editorMode: "code",
          range: false,
          instant: true,
          format: "table",
        },
      ],
      options: {
        showHeader: true,
        cellHeight: "sm",
        frameIndex: 0,
        sortBy: [
          {
            displayName: "Leaks",
            desc: true,
          },
        ],
      },
      transformations: [
        {
          id: "organize",
          options: {
            excludeByName: {
              Time: true,
            },
            renameByName: {
              table: "Table",
              kind: "Kind",
              Value: "Leaks",
            },
            indexByName: {
              table: 0,
              kind: 1,
              Value: 2,
            },
          },
        },
      ],
    },
    {
      id: 59,
      type: "timeseries",
      title: "Heap fallback bytes by table (HBase 2.3+)",
      description: "Bytes per second the allocator handed out from the heap instead of its pool, by the table (namespace:table) the allocating thread worked for and reason, top 10 (blockscope_allocator_heap_fallback_bytes_by_table_total, every fallback counted; per reason the tables add up to the panel Heap allocation ratio's reasons). A scan's blocks read into a drained pool count under the scanned table; (none): outside any table, such as an RPC request read before its call named a region; other: tables past the agent's tables cap (default 50). Healthy: below_min_size only. A table with pool_exhausted is whose load meets the drained pool: if the pool drained because buffers are stuck, the leaking table is in Pool buffers stuck by table; if none are stuck, the pool is too small for that table's load. Empty on servers without a ByteBuffAllocator.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 8,
        x: 16,
        y: 122,
      },
      fieldConfig: {
        defaults: {
          unit: "binBps",
          color: {
            mode: "palette-classic",
          },
          custom: {
            drawStyle: "line",
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: "never",
            spanNulls: false,
            axisSoftMin: 0,
            stacking: {
              mode: "none",
              group: "A",
            },
          },
          thresholds: {
            mode: "absolute",
            steps: [
              {
                color: "green",
                value: null,
              },
            ],
          },
        },
        overrides: [],
      },
      targets: [
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "A",
          expr: q("topk(10, sum by (table, reason) (rate(blockscope_allocator_heap_fallback_bytes_by_table_total{%(server)s}[$__rate_interval])))"),
          editorMode: "code",
          legendFormat: "{{table}} {{reason}}",
          range: true,
          instant: false,
        },
      ],
      options: {
        legend: {
          showLegend: true,
          displayMode: "table",
          placement: "bottom",
          calcs: ["lastNotNull", "max"],
        },
        tooltip: {
          mode: "multi",
          sort: "desc",
        },
      },
    },
  ],
}
