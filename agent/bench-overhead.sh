#!/usr/bin/env bash
# The benchmark of issue 5: what the agent costs PE multiget (zero-copy, over RPC). Recorded in
# docs/benchmarks.md ("Agent overhead").
#
# PAIRS servers without the agent (A1..An) and PAIRS with it (B1..Bn) serve one table; PE measures
# all of them in every step, interleaved (A1 B1 A2 B2, then reversed); RUNS times, with new servers
# each time. Each run prints B/A (sum of B ops/s over sum of A ops/s) and two controls, A2/A1 and B2/B1:
# identical servers, so their spread is what this machine's noise (JIT outcomes, scheduling) does to
# one comparison. The figure is the median B/A over the runs.
#
# Heaps are pinned (see bench-servers.sh).
#
# Environment: SUBDIR build folder (target), SKIP_BUILD=1 to reuse jars, RUNS (5), PAIRS (2),
# SECS measured seconds per server per run (30), ROUNDS interleaved slices (10), THREADS PE
# threads (2), ROWS table rows (50000), HEAP (1g), AGENT_OPTS agent argument (127.0.0.1:0: defaults),
# WARMUP unmeasured seconds per server before each run (20).
set -euo pipefail
cd "$(dirname "$0")/.."
SUBDIR=${SUBDIR:-target}
RUNS=${RUNS:-5}; PAIRS=${PAIRS:-2}; SECS=${SECS:-30}; ROUNDS=${ROUNDS:-10}; THREADS=${THREADS:-2}
ROWS=${ROWS:-50000}; HEAP=${HEAP:-1g}; AGENT_OPTS=${AGENT_OPTS:-127.0.0.1:0}; WARMUP=${WARMUP:-20}
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -q -Dbuild.subdir="$SUBDIR" -pl agent -am package -DskipTests
fi
AGENT=agent/$SUBDIR/blockscope-agent.jar
SERVER=example-server/$SUBDIR/blockscope-example-server.jar
DIR=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$DIR"' EXIT
source agent/bench-servers.sh
load_table "$ROWS"

echo "run  B/A    A2/A1  B2/B1  A ops/s  B ops/s  A gc#  B gc#  A gc s  B gc s"
ratios=()
for run in $(seq 1 "$RUNS"); do
  # Fresh JVMs every run: which JIT decisions and memory placement a server gets is a lottery worth
  # a few percent, and the median over runs should average it, not freeze one draw.
  pids=(); names=(); targets=()
  for i in $(seq 1 "$PAIRS"); do
    start_server "A$i"; start_server "B$i" "-javaagent:$AGENT=$AGENT_OPTS"
    names+=("A$i" "B$i")
  done
  for n in "${names[@]}"; do targets+=("$(server_url "$n")"); done
  all=$(IFS=,; echo "${targets[*]}")
  [ "$run" = 1 ] && echo "servers ${names[*]}; agent argument: $AGENT_OPTS; heap $HEAP pinned"
  # Warm up, then a full GC in every server (with and without the agent alike): start-up objects,
  # the agent's and the server's, go to the old generation, as in a server that has run a while.
  # This measures the steady state. A server with the agent has more code to compile (the sampled
  # paths, the exporter) and its first young pauses copy the agent's start-up state: both are
  # start-up costs, measured apart in docs/benchmarks.md.
  java -jar "$SERVER" pe --workload multiget --threads "$THREADS" --duration "${WARMUP}s" --warmup 1s --target "$all" \
    --no-progress > /dev/null 2>&1
  for p in "${pids[@]}"; do jcmd "$p" GC.run > /dev/null; done
  java -jar "$SERVER" pe --workload multiget --threads "$THREADS" --duration "${SECS}s" --rounds "$ROUNDS" \
    --warmup 1s --target "$all" --no-progress > "$DIR/pe$run.txt" 2>&1
  kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
  # table rows come in target order: A1 B1 A2 B2 ...; columns 4 = ops/s, 9 = GC pauses, 10 = GC s
  line=$(awk -v pairs="$PAIRS" '$1 == "multiget" {
      i = n++ % 2; ops[n] = $4; if (i == 0) { a += $4; ag += $9; as += $10 } else { b += $4; bg += $9; bs += $10 } }
    END { printf "%.3f  %.3f  %.3f  %7.0f  %7.0f  %5d  %5d  %6.3f  %6.3f",
          b / a, (pairs > 1 ? ops[3] / ops[1] : 1), (pairs > 1 ? ops[4] / ops[2] : 1),
          a / pairs, b / pairs, ag, bg, as, bs }' "$DIR/pe$run.txt")
  echo "$run    $line"
  ratios+=("${line%% *}")
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { printf "median B/A over %d runs: %.3f\n", NR, (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2) }'
