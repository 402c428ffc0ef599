#!/usr/bin/env bash
# The agent's CPU cost per operation: fresh PE JVMs, agent off and on, in alternating pairs; the
# median ratio with a 95% bootstrap interval (io.blockscope.server.bench.AgentOverhead).
#
#   example-server/overhead.sh --agent agent/target/blockscope-agent.jar --pairs 16 --out FILE.json -- \
#       --workload multiget --threads 2 --read-path zero-copy --warmup 20s --duration 10s --rounds 1 --rows 100000
#   example-server/overhead.sh --agent agent/target/blockscope-agent.jar --pairs 8 --rpc-rows 50000 --rpc-warmup 20s \
#       --out FILE.json -- --workload multiget --threads 2 --warmup 0s --duration 10s --rounds 1   # the RPC server
#
# Builds the agent and the server jar first (skip with OVERHEAD_SKIP_BUILD=1) into SUBDIR (target;
# -Dbuild.subdir). The harness runs from the test classes with the server jar (which holds Jackson)
# as its class path. --baseline-agent OLD.jar runs that jar instead of no agent (agent/bench-whole.sh).
set -euo pipefail
module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$module_dir")"
SUBDIR=${SUBDIR:-target}
if [[ "${OVERHEAD_SKIP_BUILD:-0}" != 1 ]]; then
    (cd "$root_dir" && mvn -q -Dbuild.subdir="$SUBDIR" -pl agent,example-server -am package -DskipTests)
fi
cd "$root_dir"
server="$module_dir/$SUBDIR/blockscope-example-server.jar"
# a --server given here comes later and wins
exec java -cp "$module_dir/$SUBDIR/test-classes:$server" io.blockscope.server.bench.AgentOverhead --server "$server" "$@"
