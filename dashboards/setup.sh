#!/usr/bin/env bash
# Installs what the dashboards module's tests need beyond Maven, on a fresh Debian machine (as root),
# idempotently and without questions:
#   - prometheus + promtool (Debian package): rule checks, rule unit tests, the end-to-end Prometheus;
#   - jsonnet and python3 (Debian packages) when missing: render the mixin (render.sh, MixinRenderTest, the e2e test);
#   - node + npm (Debian packages) when missing;
#   - the pinned Grafana schema (@grafana/schema) and TypeScript compiler from the npm registry, into
#     dashboards/schema/node_modules, exactly as locked in dashboards/schema/package-lock.json.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export DEBIAN_FRONTEND=noninteractive

missing=()
command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v jsonnet >/dev/null 2>&1 || python3 -c 'import _jsonnet' >/dev/null 2>&1 || missing+=(jsonnet)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "dashboards/setup.sh: missing ${missing[*]}; run as root (apt-get install) or install them yourself" >&2
    exit 1
  fi
  echo "dashboards/setup.sh: apt-get install ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

schema="$here/schema"
# npm ci is exact (lock file, integrity hashes) but slow-ish; skip it when the lock is already installed.
stamp="$schema/node_modules/.blockscope-lock.sha256"
want="$(sha256sum "$schema/package-lock.json" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$schema/node_modules/typescript/package.json" ]; then
  echo "dashboards/setup.sh: schema packages already installed"
else
  echo "dashboards/setup.sh: npm ci (@grafana/schema, typescript) in dashboards/schema"
  (cd "$schema" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

promtool --version 2>&1 | head -1
if command -v jsonnet >/dev/null 2>&1; then jsonnet --version; else echo "jsonnet: PyPI module _jsonnet"; fi
echo "node $(node --version), @grafana/schema $(node -p "require('$schema/node_modules/@grafana/schema/package.json').version")"
