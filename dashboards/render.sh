#!/usr/bin/env bash
# Renders the monitoring mixin (dashboards/mixin) into rule files, Grafana dashboards and Kubernetes
# manifests.
#
#   bash dashboards/render.sh                      # the checked-in files, default _config, in place
#   bash dashboards/render.sh --config-override '{job: "hbase-regionserver", clusterLabel: "cluster"}' --out DIR
#   bash dashboards/render.sh --config-override '{forShort: true}' --out DIR   # alerts fire within seconds (demos)
#
# The override is a jsonnet object merged into the mixin's _config (see dashboards/mixin/config.libsonnet).
# Needs jsonnet, Debian's package (apt-get install jsonnet) or PyPI's (pip install jsonnet), and python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
override='{}'
out=''
while [ $# -gt 0 ]; do
  case "$1" in
    --config-override) [ $# -ge 2 ] || { echo "render.sh: --config-override needs a jsonnet object, e.g. '{forShort: true}'" >&2; exit 2; }
      override="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || { echo "render.sh: --out needs a folder" >&2; exit 2; }
      out="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "render.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$out" ]; then
  if [ "$override" != '{}' ]; then
    echo "render.sh: with --config-override, give --out DIR (the checked-in files are the default render)" >&2
    exit 2
  fi
  out="$here"
fi
mkdir -p "$out"

fail() {
  echo "render.sh: rendering failed; is --config-override a jsonnet object of _config fields, such as '{forShort: true}'? (got: $override)" >&2
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
