#!/usr/bin/env bash
# Issue 17 item 5: a long run under cache churn, showing heap and GC stay flat (no HBASE-11678-style
# queue that fills the heap), once without and once with the blockscope agent attached (its memory
# must be bounded too). Outside CI. Each run is PE's deploy comparison with one loading: randomRead
# over 16x the data cache, so the cache evicts all the time; every TICK it records ops/s, GC pauses,
# heap after GC, direct memory and RSS; every LIVE_EVERY ticks it also runs a full collection and
# records the heap and direct memory still in use (the leak test: between collections both figures
# also count garbage waiting in the old generation; the full collection's pause counts in no tick).
# The table in docs/benchmarks.md compares each run's first and last quarter (docs/results/render.py,
# kind "longrun").
#
#   example-server/longrun.sh                                   # the full run: 60 min each, one after the other
#   DURATION=30s TICK=5s CACHE=16m example-server/longrun.sh    # test-sized (about 2 minutes in all)
#
# Knobs: DURATION (per run, 60m), TICK (60s), DEPLOY (cbc-offheap), CACHE (256m), HEAP (512m),
# THREADS (4), FACTOR (16), LIVE_EVERY (5 ticks; 0 for none), OUT (directory for JSON and charts, /tmp/blockscope-longrun),
# DATA (table directory, kept between runs; made if missing), RUNS ("noagent agent"),
# PARALLEL=1 runs both at once (halves the wall time; fine for flatness, not for comparing speed),
# SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-60m}
TICK=${TICK:-60s}
DEPLOY=${DEPLOY:-cbc-offheap}
CACHE=${CACHE:-256m}
HEAP=${HEAP:-512m}
THREADS=${THREADS:-4}
FACTOR=${FACTOR:-16}
LIVE_EVERY=${LIVE_EVERY:-5}
OUT=${OUT:-/tmp/blockscope-longrun}
DATA=${DATA:-/tmp/blockscope-longrun-data-$CACHE}
RUNS=${RUNS:-noagent agent}
JAR=example-server/target/blockscope-example-server.jar
AGENT_JAR=agent/target/blockscope-agent.jar

if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -ntp -q -pl example-server,agent -am package -DskipTests
fi
mkdir -p "$OUT"
if [ ! -f "$DATA/TestTable/table.properties" ]; then
  # rows for FACTOR x CACHE at ~5.5 KB per row (zipf values of 1 B..256 KB), with 10% to spare
  bytes=$(python3 -c "import sys;u={'k':1<<10,'m':1<<20,'g':1<<30};s='$CACHE';print(int(s[:-1])*u[s[-1]])")
  rows=$(python3 -c "print(int($FACTOR*$bytes/5500*1.1)+1000)")
  java -Xmx512m -jar "$JAR" load --data "$DATA" --rows "$rows" --value-dist zipf --value-size 262144
fi

run() {
  local name=$1 agentopt=()
  [ "$name" = agent ] && agentopt=("-javaagent:$AGENT_JAR=127.0.0.1:0")
  java "-Xms$HEAP" "-Xmx$HEAP" "${agentopt[@]}" -jar "$JAR" pe --loadings "$FACTOR" --cache-size "$CACHE" \
    --deploy "$DEPLOY" --threads "$THREADS" --duration "$DURATION" --tick "$TICK" --live-every "$LIVE_EVERY" --warmup 10s \
    --data "$DATA" --table TestTable --no-progress \
    --json "$OUT/longrun-$name.json" --charts "$OUT" > "$OUT/longrun-$name.txt"
  echo "[longrun] $name done: $OUT/longrun-$name.json"
}

if [ -n "${PARALLEL:-}" ]; then
  pids=()
  for r in $RUNS; do run "$r" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p"; done
else
  for r in $RUNS; do run "$r"; done
fi
ls "$OUT"
