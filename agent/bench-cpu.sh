#!/usr/bin/env bash
# Server CPU per operation, with and without the agent, round by round from a cold start: where
# agent/bench-overhead.sh measures steady-state throughput, this shows warm-up. Recorded in
# docs/benchmarks.md ("Agent overhead").
#
# Usage: agent/bench-cpu.sh OPS ROUNDS LABEL=AGENT_ARGUMENT|none ...
#   e.g. agent/bench-cpu.sh 10000 5 A=none B=127.0.0.1:0,leak.sample=0,jfr=off C=127.0.0.1:0
# One server per LABEL on one table; every round sends OPS multigets (PE over RPC, 2 threads) to
# each server in turn and prints the server process's CPU time (user + system, from /proc) per
# operation. Machine noise moves wall time; CPU per operation of a fixed amount of work is steadier.
# Environment: SUBDIR build folder (target; build with mvn package first), ROWS (50000).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: $0 OPS ROUNDS LABEL=AGENT_ARGUMENT|none ..." >&2; exit 2; }
SUBDIR=${SUBDIR:-target}; ROWS=${ROWS:-50000}
AGENT=agent/$SUBDIR/blockscope-agent.jar
SERVER=example-server/$SUBDIR/blockscope-example-server.jar
ops=$1; rounds=$2; shift 2
DIR=$(mktemp -d); HEAP=1g
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$DIR"' EXIT
source agent/bench-servers.sh
load_table "$ROWS"
labels=(); urls=()
for spec in "$@"; do
  label=${spec%%=*}; argument=${spec#*=}; extra=()
  [ "$argument" != none ] && extra=("-javaagent:$AGENT=$argument")
  start_server "$label" "${extra[@]}"
  labels+=("$label")
done
for label in "${labels[@]}"; do
  urls+=("$(server_url "$label")")
done
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
for round in $(seq 1 "$rounds"); do
  line="round $round:"
  for i in "${!labels[@]}"; do
    before=$(ticks "${pids[$i]}")
    java -jar "$SERVER" pe --workload multiget --threads 2 --ops "$ops" --warmup 0s --target "${urls[$i]}" \
      --no-progress > /dev/null 2>&1
    after=$(ticks "${pids[$i]}")
    line="$line  ${labels[$i]} $(( (after - before) * 1000000 / hz / ops )) us/op"
  done
  echo "$line"
done
