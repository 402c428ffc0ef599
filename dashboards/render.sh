#!/usr/bin/env bash
# Renders the monitoring mixin (dashboards/mixin) into rule files, Grafana dashboards and Kubernetes
# manifests.
#
#   bash dashboards/render.sh                      # the checked-in files (the compose demo's), in place
#   bash dashboards/render.sh --config-override '{runbookURLPattern: "https://wiki.example.com/rb#%s",
#     job: "hbase-regionserver", clusterLabel: "cluster"}' --out DIR
#   ... '{runbookURLPattern: "http://localhost:9404/runbooks#%s", forShort: true}' --out DIR   # alerts within seconds
#
# The override is a jsonnet object merged into the mixin's _config (see dashboards/mixin/config.libsonnet);
# it must set runbookURLPattern (where your operators read the runbooks): there is no default.
# Needs jsonnet, Debian's package (apt-get install jsonnet) or PyPI's (pip install jsonnet), and python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
checked_in='{runbookURLPattern: "http://localhost:9404/runbooks#%s"}'
override='{}'
out=''
while [ $# -gt 0 ]; do
  case "$1" in
    --config-override) [ $# -ge 2 ] || { echo "render.sh: --config-override needs a jsonnet object, e.g. '{forShort: true}'" >&2; exit 2; }
      override="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || { echo "render.sh: --out needs a folder" >&2; exit 2; }
      out="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "render.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$out" ]; then
  if [ "$override" != '{}' ]; then
    echo "render.sh: with --config-override, give --out DIR (the checked-in files are the compose demo's render)" >&2
    exit 2
  fi
  # The checked-in files serve docker-compose.yml, whose example server publishes its agent's endpoint
  # (which serves the runbooks) on localhost:9404, as its Grafana is grafanaURL's localhost:3000.
  override="$checked_in"
  out="$here"
fi
mkdir -p "$out"

fail() {
  echo "render.sh: rendering failed (the error above); --config-override must be a jsonnet object of _config fields that sets runbookURLPattern, such as '{runbookURLPattern: \"https://wiki.example.com/rb#%s\", forShort: true}' (got: $override)" >&2
  exit 1
}
if command -v jsonnet >/dev/null 2>&1; then
  json="$(jsonnet -J "$here/mixin" --ext-code "override=$override" "$here/mixin/render.jsonnet")" || fail
elif python3 -c 'import _jsonnet' >/dev/null 2>&1; then
  json="$(python3 -c 'import os, sys, _jsonnet
print(_jsonnet.evaluate_file(os.path.join(sys.argv[1], "render.jsonnet"), jpathdir=[sys.argv[1]], ext_codes={"override": sys.argv[2]}))' \
    "$here/mixin" "$override")" || fail
else
  echo "render.sh: jsonnet not found: apt-get install jsonnet (Debian) or pip install jsonnet (PyPI)" >&2
  exit 1
fi
printf '%s' "$json" | python3 "$here/mixin/write.py" "$out"
