#!/usr/bin/env bash
# Builds the Prometheus 3 server and promtool the dashboards tests run the rules and dashboards on
# (Debian only packages 2.x, and no prebuilt binary can be downloaded here), with the Go toolchain from
# the Go module proxy, and prints the one variable the tests read:
#   BLOCKSCOPE_PROMETHEUS3=/abs/dir        (holding prometheus and promtool)
# Idempotent: binaries already in the cache are reused without touching the network or the compiler.
#   export "$(bash .ci/prometheus3.sh | tail -1)"
# Cache: ${BLOCKSCOPE_PROMETHEUS3_CACHE:-$HOME/.cache/blockscope}/prometheus-<module version>/.
# Version: BLOCKSCOPE_PROMETHEUS3_MODULE_VERSION (default v0.316.0, the Go module of Prometheus 3.16.0:
# Prometheus tags its Go module v0.3XX.Y for release 3.XX.Y). Go: go on PATH or /usr/local/go/bin/go.
# A cold build (module downloads + compile) takes minutes on 2 cores: see docs/benchmarks.md.
set -euo pipefail

version="${BLOCKSCOPE_PROMETHEUS3_MODULE_VERSION:-v0.316.0}"
cache="${BLOCKSCOPE_PROMETHEUS3_CACHE:-$HOME/.cache/blockscope}"
dir="$cache/prometheus-$version"

if [ ! -x "$dir/prometheus" ] || [ ! -x "$dir/promtool" ]; then
  go_cmd="$(command -v go || true)"
  [ -n "$go_cmd" ] || { [ -x /usr/local/go/bin/go ] && go_cmd=/usr/local/go/bin/go; }
  if [ -z "$go_cmd" ]; then
    echo "no Go toolchain found (go on PATH or /usr/local/go/bin/go): Prometheus 3 is built from source;" \
      "install Go 1.25 or newer (Debian: apt-get install golang-go, if its version is new enough)" >&2
    exit 1
  fi
  echo "== building Prometheus 3 (github.com/prometheus/prometheus@$version) with $("$go_cmd" version) into $dir" >&2
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.prometheus-build-XXXXXX")"
  chmod 755 "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  start=$SECONDS
  # The release number, as Prometheus' own builds (promu) stamp it: go install alone leaves it empty, and
  # then neither --version nor /api/v1/status/buildinfo says which Prometheus this is. v0.316.0 -> 3.16.0.
  minor_patch="${version#v0.3}"
  release="3.$((10#${minor_patch%%.*})).${minor_patch#*.}"
  # GOTOOLCHAIN=local: never try to download another Go toolchain (only module downloads reach out).
  GOTOOLCHAIN=local GOBIN="$tmp" "$go_cmd" install \
    -ldflags "-X github.com/prometheus/common/version.Version=$release -X github.com/prometheus/common/version.Branch=$version" \
    "github.com/prometheus/prometheus/cmd/prometheus@$version" \
    "github.com/prometheus/prometheus/cmd/promtool@$version" >&2
  "$tmp/prometheus" --version 2>&1 | grep -q "version $release" \
    || { echo "the built prometheus does not run or is not $release: $("$tmp/prometheus" --version 2>&1 | head -1)" >&2; exit 1; }
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
  echo "== built in $((SECONDS - start)) s: $("$dir/prometheus" --version 2>&1 | head -1)" >&2
fi

echo "BLOCKSCOPE_PROMETHEUS3=$(cd "$dir" && pwd)"
