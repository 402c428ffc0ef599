// Generated once from the Grafana JSON, now the source: edit here, then run bash dashboards/render.sh.
// q() fills the selectors: %(jobs)s = the chosen clusters and jobs, %(by)s = the labels of one server,
// %(linkVars)s = a data link's server variables. The fleet is chosen by cluster and job, not by instance:
// every stat and top-10 table reads a per-job recording rule (rules.libsonnet), which a per-instance
// filter could not narrow; one server is the Offheap read path dashboard's.
local common = import 'common.libsonnet';

function(config)
  local q(expr) = expr % common.selectors(config);
  // The fleet's tables: one table name in two clusters is two tables.
  local tableBy = (if config.clusterLabel != '' then config.clusterLabel + ', ' else '') + 'table';
  local tableLegend = (if config.clusterLabel != '' then '{{%s}} ' % config.clusterLabel else '') + '{{table}}';
  local medianLegend = 'median of ' + (if config.clusterLabel != '' then '{{%s}} ' % config.clusterLabel else '') + '{{job}}';
  local variables = common.variables(config, fleet=true);
  {
  id: null,
  uid: "blockscope-fleet",
  title: "Fleet overview",
  description: "Hundreds of servers at a glance: top-k instances by copy-to-heap bytes, GC pause p99, outstanding references and leaks, and cluster totals. Reads per-job recording rules, so it stays fast at 15,000 instances, through Thanos Query too; click an instance to open its Offheap read path dashboard.",
  tags: ["blockscope", "jvm", "offheap"],
  editable: true,
  graphTooltip: 1,
  schemaVersion: 41,
  version: 1,
  refresh: "1m",
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
        expr: q("ALERTS{%(jobs)s, alertstate=\"firing\", alertname=~\"Blockscope.*\"}"),
        step: "1m",
        titleFormat: "{{alertname}}",
        textFormat: "{{alertname}} on {{instance}}",
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
      title: "Cluster",
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
      title: "Instances up",
      description: "Targets of the selected jobs whose last scrape succeeded (up == 1; recording rule job:blockscope_instances_up:count). Healthy: the number of servers you run.",
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
          expr: q("sum(job:blockscope_instances_up:count{%(jobs)s}) or vector(0)"),
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
      id: 3,
      type: "stat",
      title: "Instances down",
      description: "Targets of the selected jobs whose last scrape failed (up == 0; recording rule job:blockscope_instances_down:count). Healthy: 0 (alert BlockscopeScrapeFailing).",
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
              {
                color: "red",
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
          expr: q("sum(job:blockscope_instances_down:count{%(jobs)s}) or vector(0)"),
          editorMode: "code",
          legendFormat: "down",
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
      id: 4,
      type: "stat",
      title: "Cluster copy-to-heap",
      description: "Bytes copied from offheap cells onto the heap per second, summed over the selected jobs (recording rule job_component:blockscope_copy_to_heap_bytes:rate1m). Healthy: near zero for zero-copy servers; copy-mode servers copy whole blocks by design.",
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
          expr: q("sum(job_component:blockscope_copy_to_heap_bytes:rate1m{%(jobs)s}) or vector(0)"),
          editorMode: "code",
          legendFormat: "copy",
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
      title: "Instances in copy mode",
      description: "Servers whose read path copies whole blocks onto the heap (blockscope_read_path_mode{mode=\"copy\"}). Healthy: 0, unless you run copy mode on purpose as a comparison.",
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
              {
                color: "orange",
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
          expr: q("count(blockscope_read_path_mode{%(jobs)s, mode=\"copy\"} == 1) or vector(0)"),
          editorMode: "code",
          legendFormat: "copy mode",
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
      id: 6,
      type: "stat",
      title: "Leaks in range",
      description: "Block checkout and pool buffer leaks detected over the selected time range on the servers of the selected jobs (blockscope_block_leaks_total, both kinds). Healthy: 0 (alert BlockscopeBlockRefLeak).",
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
              {
                color: "red",
                value: 1,
              },
            ],
          },
          decimals: 0,
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
          expr: q("sum((increase(blockscope_block_leaks_total{%(jobs)s}[$__range]) and blockscope_block_leaks_total{%(jobs)s} offset $__range) or (blockscope_block_leaks_total{%(jobs)s} unless blockscope_block_leaks_total{%(jobs)s} offset $__range)) or vector(0)"),
          editorMode: "code",
          legendFormat: "leaks",
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
      title: "Worst GC pause p99",
      description: "The highest per-instance 99th percentile GC pause over the last 5 minutes (recording rule job:blockscope_gc_pause_seconds:max_p99_rate5m of instance:blockscope_gc_pause_seconds:p99_rate5m). Healthy: below 200ms (alert BlockscopeGcPauseP99High).",
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
          unit: "s",
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
                value: 0.1,
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
          expr: q("max(job:blockscope_gc_pause_seconds:max_p99_rate5m{%(jobs)s})"),
          editorMode: "code",
          legendFormat: "worst p99",
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
      id: 10,
      type: "row",
      title: "Top instances (click an instance to open its Offheap read path dashboard)",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 5,
      },
      panels: [],
    },
    {
      id: 11,
      type: "table",
      title: "Top 10 by copy-to-heap bytes/s",
      description: "The 10 instances copying the most bytes from offheap cells onto the heap over the last minute (recording rule instance:blockscope_copy_to_heap_bytes:top10_rate1m: each job's top 10 of instance:blockscope_copy_to_heap_bytes:rate1m). Healthy: zero-copy servers near zero. Click an instance to see its hottest copy sites.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 9,
        w: 8,
        x: 0,
        y: 6,
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
          links: [
            {
              title: "Open ${__data.fields.instance} in Offheap read path",
              targetBlank: false,
              url: q("/d/blockscope-offheap/offheap-read-path?${datasource:queryparam}&%(linkVars)s&${__url_time_range}"),
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
          expr: q("topk(10, instance:blockscope_copy_to_heap_bytes:top10_rate1m{%(jobs)s})"),
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
            displayName: "Copy bytes/s",
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
              Value: "Copy bytes/s",
            },
            indexByName: {
              instance: 0,
              job: 1,
              Value: 2,
            },
          },
        },
      ],
    },
    {
      id: 12,
      type: "table",
      title: "Top 10 by GC pause p99",
      description: "The 10 instances with the highest 99th percentile stop-the-world pause over the last 5 minutes (recording rule instance:blockscope_gc_pause_seconds:top10_p99_rate5m: each job's top 10 of instance:blockscope_gc_pause_seconds:p99_rate5m, from native histograms). Healthy: all below 200ms.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 9,
        w: 8,
        x: 8,
        y: 6,
      },
      fieldConfig: {
        defaults: {
          unit: "s",
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
          links: [
            {
              title: "Open ${__data.fields.instance} in Offheap read path",
              targetBlank: false,
              url: q("/d/blockscope-offheap/offheap-read-path?${datasource:queryparam}&%(linkVars)s&${__url_time_range}"),
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
          expr: q("topk(10, instance:blockscope_gc_pause_seconds:top10_p99_rate5m{%(jobs)s})"),
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
            displayName: "GC pause p99",
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
              Value: "GC pause p99",
            },
            indexByName: {
              instance: 0,
              job: 1,
              Value: 2,
            },
          },
        },
      ],
    },
    {
      id: 13,
      type: "table",
      title: "Top 10 by time paused",
      description: "The 10 instances spending the largest share of time in stop-the-world pauses over the last 5 minutes (recording rule instance:blockscope_gc_pause_time:top10_ratio_rate5m: each job's top 10 of instance:blockscope_gc_pause_time:ratio_rate5m). Healthy: all under 1-2%; above 5% fires BlockscopeGcPauseTimeHigh.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 9,
        w: 8,
        x: 16,
        y: 6,
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
            ],
          },
          custom: {
            align: "auto",
            cellOptions: {
              type: "auto",
            },
            inspect: false,
          },
          links: [
            {
              title: "Open ${__data.fields.instance} in Offheap read path",
              targetBlank: false,
              url: q("/d/blockscope-offheap/offheap-read-path?${datasource:queryparam}&%(linkVars)s&${__url_time_range}"),
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
          expr: q("topk(10, instance:blockscope_gc_pause_time:top10_ratio_rate5m{%(jobs)s})"),
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
            displayName: "Time paused",
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
              Value: "Time paused",
            },
            indexByName: {
              instance: 0,
              job: 1,
              Value: 2,
            },
          },
        },
      ],
    },
    {
      id: 14,
      type: "table",
      title: "Top 10 by outstanding block references",
      description: "The 10 instances with the most blocks handed out by getBlock and not yet returned, all tiers (recording rule instance:blockscope_block_refs_outstanding:top10_sum: each job's top 10 of blockscope_block_refs_outstanding). Healthy: in line with requests in flight; an instance that stays on top while idle leaks references.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 9,
        w: 12,
        x: 0,
        y: 15,
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
          links: [
            {
              title: "Open ${__data.fields.instance} in Offheap read path",
              targetBlank: false,
              url: q("/d/blockscope-offheap/offheap-read-path?${datasource:queryparam}&%(linkVars)s&${__url_time_range}"),
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
          expr: q("topk(10, instance:blockscope_block_refs_outstanding:top10_sum{%(jobs)s})"),
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
            displayName: "Outstanding refs",
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
              Value: "Outstanding refs",
            },
            indexByName: {
              instance: 0,
              job: 1,
              Value: 2,
            },
          },
        },
      ],
    },
    {
      id: 15,
      type: "table",
      title: "Top 10 by leaks in range",
      description: "The 10 instances with the most block reference leaks detected over the selected time range (blockscope_block_leaks_total). Healthy: empty.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 9,
        w: 12,
        x: 12,
        y: 15,
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
          links: [
            {
              title: "Open ${__data.fields.instance} in Offheap read path",
              targetBlank: false,
              url: q("/d/blockscope-offheap/offheap-read-path?${datasource:queryparam}&%(linkVars)s&${__url_time_range}"),
            },
          ],
          decimals: 0,
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
          expr: q("topk(10, sum by (%(by)s) ((increase(blockscope_block_leaks_total{%(jobs)s}[$__range]) and blockscope_block_leaks_total{%(jobs)s} offset $__range) or (blockscope_block_leaks_total{%(jobs)s} unless blockscope_block_leaks_total{%(jobs)s} offset $__range)) > 0)"),
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
              Value: "Leaks",
            },
            indexByName: {
              instance: 0,
              job: 1,
              Value: 2,
            },
          },
        },
      ],
    },
    {
      id: 20,
      type: "row",
      title: "Cluster trends",
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 24,
      },
      panels: [],
    },
    {
      id: 21,
      type: "timeseries",
      title: "Cluster copy-to-heap bytes/s by component",
      description: "Bytes copied onto the heap per second over all instances of the selected jobs, by component (recording rule job_component:blockscope_copy_to_heap_bytes:rate1m, one series per job: fast at 15,000 servers). Healthy: near zero except block on copy-mode servers; a new band after a deploy points at the code that started copying.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 25,
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
          expr: q("sum by (component) (job_component:blockscope_copy_to_heap_bytes:rate1m{%(jobs)s})"),
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
      id: 22,
      type: "timeseries",
      title: "Cluster getBlock rate by tier and result",
      description: "getBlock calls per second over all instances of the selected jobs by tier and result (recording rule job_tier_result:blockscope_block_cache_gets:rate1m of blockscope_block_cache_gets_total). Healthy: hits dominate and follow the request rate.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 25,
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
          expr: q("sum by (tier, result) (job_tier_result:blockscope_block_cache_gets:rate1m{%(jobs)s})"),
          editorMode: "code",
          legendFormat: "{{tier}} {{result}}",
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
      title: "GC pause p99: worst instance and each job's median",
      description: "The worst per-instance GC pause p99 over the selected jobs, and each job's median instance (recording rules job:blockscope_gc_pause_seconds:max_p99_rate5m and :median_p99_rate5m of instance:blockscope_gc_pause_seconds:p99_rate5m; a median does not add up across jobs or clusters, so each has its line). Healthy: both flat and below 200ms; a worst line far above the median points at a few sick instances (see the top 10 table).",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 33,
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
          expr: q("max(job:blockscope_gc_pause_seconds:max_p99_rate5m{%(jobs)s})"),
          editorMode: "code",
          legendFormat: "worst",
          range: true,
          instant: false,
        },
        {
          datasource: {
            type: "prometheus",
            uid: "${datasource}",
          },
          refId: "B",
          expr: q("job:blockscope_gc_pause_seconds:median_p99_rate5m{%(jobs)s}"),
          editorMode: "code",
          legendFormat: medianLegend,
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
      title: "Cluster outstanding block references",
      description: "Blocks handed out and not yet returned over all instances of the selected jobs, by tier (recording rule job_tier:blockscope_block_refs_outstanding:sum of blockscope_block_refs_outstanding). Healthy: follows load and falls back when load drops; a staircase is a leak somewhere.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 33,
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
          expr: q("sum by (tier) (job_tier:blockscope_block_refs_outstanding:sum{%(jobs)s})"),
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
      id: 25,
      type: "timeseries",
      title: "Tables that copy most (HBase)",
      description: "The 10 tables (namespace:table) that copy the most bytes onto the heap per second over all instances of the selected jobs (recording rule job_table:blockscope_copy_to_heap_bytes:rate1m of blockscope_copy_to_heap_bytes_by_table_total, one series per job and table: fast at 15,000 servers). Healthy: near zero. A table on top is whose reads to look at first: open a server of its job and read its by-table and by-user panels. (none): copies outside any table; other: tables past some server's tables cap (default 50), not one table. HBase (hbase2 profile) only.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 41,
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
          expr: q("topk(10, sum by (" + tableBy + ") (job_table:blockscope_copy_to_heap_bytes:rate1m{%(jobs)s}))"),
          editorMode: "code",
          legendFormat: tableLegend,
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
      id: 26,
      type: "timeseries",
      title: "Tables with stuck pool buffers (HBase 2.3+)",
      description: "The 10 tables (namespace:table) with the most allocator pool buffers out of the pool longer than the agent's leak.age, summed over the servers of the selected jobs (blockscope_allocator_pool_buffers_stuck_by_table: every take counted; only servers with stuck buffers export it, so it is read raw, without a recording rule). Healthy: one line, none stuck, at 0 (shown while no table has a stuck buffer). A table on top is whose reads or writes leak the pool's buffers (BlockscopePoolBuffersStuck fires on those servers): open one of them and read its Whose leaks and heap fallbacks row. (none): buffers taken outside any table; other: tables past some server's tables cap (default 50), not one table.",
      datasource: {
        type: "prometheus",
        uid: "${datasource}",
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 41,
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
          // or on(): a 0 line only while no table has a stuck buffer, so healthy reads 0, not No data.
          expr: q("topk(10, sum by (" + tableBy + ") (blockscope_allocator_pool_buffers_stuck_by_table{%(jobs)s})) or on() label_replace(vector(0), \"table\", \"none stuck\", \"\", \"\")"),
          editorMode: "code",
          legendFormat: tableLegend,
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
