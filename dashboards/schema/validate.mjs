// Validates Grafana dashboard JSON files against the TypeScript types Grafana publishes in
// @grafana/schema (the pinned version in package.json).
//
// @grafana/schema ships no JSON Schema: its dashboard model is a set of TypeScript interfaces generated
// from Grafana's CUE kinds. So each dashboard becomes a TypeScript source in memory, in which the
// dashboard and every panel are object literals annotated with the published types, and the
// TypeScript compiler checks them: required fields, field types, enum values, and (because they are
// literals) unknown keys. A panel's `options` and `fieldConfig.defaults.custom` are checked against its
// own plugin's published Options/FieldConfig; a panel type without published types is an error.
//
// Usage: node validate.mjs DASHBOARD.json...   exit 0 when valid, 1 with one line per problem.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require('typescript');
const schemaVersion = require('@grafana/schema/package.json').version;

// Panel plugins whose Options (and FieldConfig, where the plugin has one) @grafana/schema publishes.
const PANEL_TYPES = {
  timeseries: { module: 'timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen', fieldConfig: true },
  stat: { module: 'stat/panelcfg/x/StatPanelCfg_types.gen', fieldConfig: false },
  bargauge: { module: 'bargauge/panelcfg/x/BarGaugePanelCfg_types.gen', fieldConfig: false },
  table: { module: 'table/panelcfg/x/TablePanelCfg_types.gen', fieldConfig: true },
  gauge: { module: 'gauge/panelcfg/x/GaugePanelCfg_types.gen', fieldConfig: false },
  heatmap: { module: 'heatmap/panelcfg/x/HeatmapPanelCfg_types.gen', fieldConfig: true },
  text: { module: 'text/panelcfg/x/TextPanelCfg_types.gen', fieldConfig: false },
};

// Shared declarations. Json<T> turns Grafana's TypeScript enums into the string literals that JSON
// holds (a JSON string can never be a TS enum member), and keeps everything else as published.
const PRELUDE = `
import type { Dashboard, AnnotationQuery, FieldConfigSource, FieldConfig, Panel, RowPanel, DataQuery } from '@grafana/schema';
type Json<T> =
  T extends string ? \`\${T}\` :
  T extends number | boolean | null | undefined ? T :
  T extends ReadonlyArray<infer U> ? Array<Json<U>> :
  T extends object ? { [K in keyof T]: Json<T[K]> } : T;
// Queries are datasource-specific; @grafana/schema ${schemaVersion} publishes only the common part.
type Query = Json<DataQuery> & Record<string, unknown>;
type FieldConfigOf<C> = Omit<Json<FieldConfig>, 'custom'> & { custom?: Json<C> };
type FieldConfigSourceOf<C> = Omit<Json<FieldConfigSource>, 'defaults' | 'overrides'> & {
  defaults: FieldConfigOf<C>;
  overrides: Json<FieldConfigSource>['overrides'];
};
type PanelOf<O, C> = Omit<Json<Panel>, 'options' | 'fieldConfig' | 'targets'> & {
  options?: Json<O>;
  fieldConfig?: FieldConfigSourceOf<C>;
  targets?: Array<Query>;
};
type RowOf = Omit<Json<RowPanel>, 'panels'> & { panels: unknown[] };
// Prometheus annotations keep titleFormat/textFormat/tagKeys beside the common fields.
type Annotation = Omit<Json<AnnotationQuery>, 'target'> & { target?: Query } & Record<string, unknown>;
type DashboardOf = Omit<Json<Dashboard>, 'panels' | 'annotations'> & {
  annotations?: { list?: Array<Annotation> };
  panels?: Array<PanelOf<unknown, unknown> | RowOf>;
};
`;

/** Emits one dashboard as TypeScript; returns the source and the line span of each panel. */
function emit(dashboard) {
  const lines = PRELUDE.split('\n');
  const spans = [];
  const imports = new Set();
  const names = [];
  const problems = [];
  (dashboard.panels ?? []).forEach((panel, index) => {
    const name = `panel${index}`;
    let type;
    if (panel.type === 'row') {
      type = 'RowOf';
    } else {
      const known = PANEL_TYPES[panel.type];
      if (!known) {
        problems.push(`panel ${panel.id} (${panel.title}): type '${panel.type}' has no published schema in @grafana/schema ${schemaVersion}; use one of ${Object.keys(PANEL_TYPES).join(', ')}`);
        return;
      }
      imports.add(panel.type);
      type = `PanelOf<${panel.type}.Options, ${known.fieldConfig ? `${panel.type}.FieldConfig` : 'never'}>`;
    }
    const literal = JSON.stringify(panel, null, 2).split('\n');
    spans.push({ from: lines.length + 1, to: lines.length + literal.length, panel });
    lines.push(`const ${name}: ${type} = ${literal[0]}`, ...literal.slice(1));
    names.push(name);
  });
  const { panels, ...rest } = dashboard;
  const top = JSON.stringify({ ...rest, panels: '__PANELS__' }, null, 2)
    .replace('"__PANELS__"', `[${names.join(', ')}]`)
    .split('\n');
  spans.push({ from: lines.length + 1, to: lines.length + top.length, panel: null });
  lines.push(`export const dashboard: DashboardOf = ${top[0]}`, ...top.slice(1));
  const importLines = [...imports].map(
    (t) => `import type * as ${t} from '@grafana/schema/dist/esm/raw/composable/${PANEL_TYPES[t].module}';`);
  // Imports go first; shift the recorded spans accordingly.
  spans.forEach((s) => { s.from += importLines.length; s.to += importLines.length; });
  return { source: [...importLines, ...lines].join('\n'), spans, problems };
}

function where(spans, line) {
  const span = spans.find((s) => line >= s.from && line <= s.to);
  if (!span) return 'prelude';
  return span.panel ? `panel ${span.panel.id} (${span.panel.title})` : 'dashboard';
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs DASHBOARD.json...');
  process.exit(2);
}

const sources = new Map();
const meta = new Map();
const problems = [];
files.forEach((file, i) => {
  let dashboard;
  try {
    dashboard = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    problems.push(`${file}: not readable JSON: ${e.message}`);
    return;
  }
  const emitted = emit(dashboard);
  emitted.problems.forEach((p) => problems.push(`${file}: ${p}`));
  // Virtual files beside node_modules so that module resolution finds @grafana/schema.
  const virtual = path.join(here, `__dashboard_${i}__.ts`);
  sources.set(virtual, emitted.source);
  meta.set(virtual, { file, spans: emitted.spans });
});

const options = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true,
  types: [],
};
const host = ts.createCompilerHost(options);
const readFile = host.readFile.bind(host);
const getSourceFile = host.getSourceFile.bind(host);
host.fileExists = (f) => sources.has(f) || fs.existsSync(f);
host.readFile = (f) => (sources.has(f) ? sources.get(f) : readFile(f));
host.getSourceFile = (f, lang, onError, create) =>
  sources.has(f) ? ts.createSourceFile(f, sources.get(f), lang, true) : getSourceFile(f, lang, onError, create);

const program = ts.createProgram([...sources.keys()], options, host);
for (const d of ts.getPreEmitDiagnostics(program)) {
  const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  if (!d.file || !meta.has(d.file.fileName)) {
    problems.push(`schema check setup: ${message}`);
    continue;
  }
  const { file, spans } = meta.get(d.file.fileName);
  const { line } = d.file.getLineAndCharacterOfPosition(d.start);
  const text = d.file.text.split('\n')[line].trim();
  problems.push(`${file}: ${where(spans, line + 1)}: ${message} [at: ${text}]`);
}

if (problems.length > 0) {
  problems.forEach((p) => console.log(p));
  console.log(`${problems.length} problem(s) against @grafana/schema ${schemaVersion}`);
  process.exit(1);
}
console.log(`${files.length} dashboard(s) valid against @grafana/schema ${schemaVersion}`);
