#!/usr/bin/env bash
# Builds the Thanos binary (query, sidecar, rule, store) the fleet tests run the mixin through, from the
# Go module proxy (no prebuilt binary can be downloaded here), and prints the one variable they read:
#   BLOCKSCOPE_THANOS=/abs/path/to/thanos
# Idempotent: a binary already in the cache is reused without touching the network or the compiler.
#   export "$(bash .ci/thanos.sh | tail -1)"
# Cache: ${BLOCKSCOPE_THANOS_CACHE:-$HOME/.cache/blockscope}/thanos-<version>/thanos.
# Version: BLOCKSCOPE_THANOS_VERSION (default v0.42.5). Its go.mod has `replace` directives, so
# `go install thanos@version` refuses; a throwaway module that requires it and copies that replace block
# builds it instead. It needs Go 1.26.10 or later: GOTOOLCHAIN fetches that toolchain from the proxy.
set -euo pipefail

version="${BLOCKSCOPE_THANOS_VERSION:-v0.42.5}"
toolchain="${BLOCKSCOPE_THANOS_GOTOOLCHAIN:-go1.27.3}"
cache="${BLOCKSCOPE_THANOS_CACHE:-$HOME/.cache/blockscope}"
dir="$cache/thanos-$version"
# Thanos' own release build (.promu.yml) uses the slicelabels tag: its StoreAPI code casts Prometheus'
# labels.Labels to its own label slice with unsafe. Without the tag (Prometheus 3's default is
# stringlabels) a sidecar panics on its first gRPC answer (makeslice: len out of range). The stamp keeps
# a binary built otherwise from being reused.
tags=slicelabels

if [ ! -x "$dir/thanos" ] || [ "$(cat "$dir/build-tags" 2>/dev/null)" != "$tags" ]; then
  go_cmd="$(command -v go || true)"
  [ -n "$go_cmd" ] || { [ -x /usr/local/go/bin/go ] && go_cmd=/usr/local/go/bin/go; }
  [ -n "$go_cmd" ] || { echo "no Go toolchain found (go on PATH or /usr/local/go/bin/go): Thanos is built from source" >&2; exit 1; }
  echo "== building Thanos $version with GOTOOLCHAIN=$toolchain into $dir" >&2
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.thanos-build-XXXXXX")"
  chmod 755 "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  start=$SECONDS
  export GOTOOLCHAIN="$toolchain" GOFLAGS=-mod=mod
  mkdir "$tmp/src"
  cd "$tmp/src"
  "$go_cmd" mod init blockscope.local/thanos-build >/dev/null 2>&1
  # thanos' own go.mod, for its replace block (the pins it is tested with)
  "$go_cmd" mod download -json "github.com/thanos-io/thanos@$version" >"$tmp/dl.json"
  gomod="$(sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p' "$tmp/dl.json")"
  [ -f "$gomod" ] || { echo "could not download github.com/thanos-io/thanos@$version's go.mod" >&2; exit 1; }
  {
    printf 'module blockscope.local/thanos-build\n\ngo 1.26.10\n\nrequire github.com/thanos-io/thanos %s\n\n' "$version"
    awk '/^replace \(/{p=1} p{print} p&&/^\)/{p=0} /^replace [^(]/{print}' "$gomod"
  } >go.mod
  printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/thanos-io/thanos/cmd/thanos"\n' >tools.go
  "$go_cmd" mod tidy >&2
  "$go_cmd" build -trimpath -tags "$tags" \
    -ldflags "-X github.com/prometheus/common/version.Version=${version#v} -X github.com/prometheus/common/version.Branch=$version" \
    -o "$tmp/thanos" github.com/thanos-io/thanos/cmd/thanos >&2
  "$tmp/thanos" --version 2>&1 | grep -q "version ${version#v}" \
    || { echo "the built thanos does not run or is not ${version#v}: $("$tmp/thanos" --version 2>&1 | head -1)" >&2; exit 1; }
  mkdir -p "$dir.new"
  mv "$tmp/thanos" "$dir.new/thanos"
  echo "$tags" >"$dir.new/build-tags"
  rm -rf "$dir"
  mv "$dir.new" "$dir"
  echo "== built in $((SECONDS - start)) s: $("$dir/thanos" --version 2>&1 | head -1)" >&2
fi

echo "BLOCKSCOPE_THANOS=$(cd "$dir" && pwd)/thanos"
