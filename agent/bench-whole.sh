#!/usr/bin/env bash
# The whole agent's cost as an operator pays it, and the guard against regressions: fresh JVMs
# running in-process PE multiget (zero-copy, 4 threads, 100,000 rows), arm A and arm B alternated in
# pairs (A B, B A, A B, ...). Per pair: process CPU per operation over PE's measured window only (no
# start-up, no warm-up; every thread: reads, GC, JIT, the agent) and throughput, each as B/A. It
# prints every pair's ratios, their medians with a 95% bootstrap interval (pairs resampled) and the
# number of pairs, and writes them to a JSON file. The pairing and statistics are
# example-server/overhead.sh's (io.blockscope.server.bench.AgentOverhead, AgentOverheadTest).
#
#   agent/bench-whole.sh [--vs-ref REF] [--pairs N] [--out FILE.json] [-- PE options]   # the default
#   agent/bench-whole.sh --vs-jar OLD.jar [--pairs N] [--out FILE.json]
#   agent/bench-whole.sh --no-agent [--pairs N] [--out FILE.json]
#
# B is always the working tree's agent jar (uncommitted changes included). A is
#   --vs-ref REF   the agent jar of git ref REF, built in a temporary worktree (kept in the build
#                  folder by commit for the next run). Default: `git merge-base HEAD main`, the last
#                  landing your branch or working tree starts from;
#   --vs-jar JAR   that jar;
#   --no-agent     no agent at all: the whole agent's cost.
# Both arms run the working tree's example server and the same agent argument (--agent-options,
# default 127.0.0.1:0: the defaults). PE options after `--` replace the workload above; keep one
# workload, one thread count and one read path (one record).
#
# Resolution: fresh JVMs of identical code differ by per cents to tens of per cents in CPU per
# operation, so a run resolves a change only as finely as its interval. Its half-width shrinks as
# 1/sqrt(pairs); the script prints, from its own spread, how many pairs would bring it to +-1%.
# Estimate, not a measurement on a quiet machine: on the shared 2-core VM this was written on, at
# load average 8-13, two runs of 4 pairs of 8 s windows gave per-pair CPU ratios 0.65-1.94, a spread
# that puts +-1% at 11,000-14,000 pairs: there it resolves only tens of per cents. Run it quiet.
# A pair (two JVMs) takes about a minute and a half at the default windows. Read the interval, not
# the median: B costs more when the interval's lower end is above 1.
#
# Environment: SUBDIR build folder (target; -Dbuild.subdir), SKIP_BUILD=1 to reuse the working
# tree's jars.
set -euo pipefail
SUBDIR=${SUBDIR:-target}
mode=ref; ref=""; old=""; pairs=20; out=""; options=127.0.0.1:0
usage="usage: $0 [--vs-ref REF | --vs-jar JAR | --no-agent] [--pairs N] [--out FILE.json] [--agent-options O] [-- PE options]"
while [ $# -gt 0 ]; do
  case $1 in
    --vs-ref) mode=ref; ref=$2; shift 2 ;;
    --vs-jar) mode=jar; old=$2; shift 2 ;;
    --no-agent) mode=none; shift ;;
    --pairs) pairs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --agent-options) options=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
pe=("$@")
# the paths given are the caller's; the rest runs from the repository's root
[ -z "$old" ] || old=$(realpath "$old")
[ -z "$out" ] || out=$(realpath -m "$out")
cd "$(dirname "$0")/.."
[ ${#pe[@]} -gt 0 ] || pe=(--workload multiget --threads 4 --read-path zero-copy --rows 100000 --warmup 10s
  --duration 15s --rounds 1)
[ -n "$out" ] || out=agent/$SUBDIR/bench-whole.json

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mvn -B -ntp -q -Dbuild.subdir="$SUBDIR" -pl agent,example-server -am package -DskipTests
fi
AGENT=agent/$SUBDIR/blockscope-agent.jar

# The agent jar of commit $1, built once in a detached worktree and kept as agent/$SUBDIR/blockscope-agent-SHA.jar.
ref_jar() {
  local sha jar tree
  sha=$(git rev-parse --verify "$1^{commit}")
  jar=agent/$SUBDIR/blockscope-agent-${sha:0:12}.jar
  if [ ! -f "$jar" ]; then
    tree=$(mktemp -d)/ref
    git worktree add --detach -q "$tree" "$sha" >&2
    # this function runs in $(...), so this is its own exit; $tree expanded now, while it is in scope
    trap "git worktree remove --force '$tree'" EXIT
    # -Dbuild.subdir: the ref's build may run beside others; older refs without it build to target
    (cd "$tree" && mvn -B -ntp -q -Dbuild.subdir=target-bench -pl agent -am package -DskipTests) >&2 || exit 1
    for built in "$tree"/agent/target-bench/blockscope-agent.jar "$tree"/agent/target/blockscope-agent.jar; do
      [ -f "$built" ] && { cp "$built" "$jar"; break; }
    done
    [ -f "$jar" ] || { echo "[bench-whole] the build of $sha made no agent jar" >&2; exit 1; }
  fi
  echo "$jar"
}

baseline=()
case $mode in
  ref) [ -n "$ref" ] || ref=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
       echo "[bench-whole] A: the agent of $(git log -1 --format='%h %s' "$ref"); B: the working tree's" >&2
       old=$(ref_jar "$ref")  # on its own line: set -e stops here when the build fails
       baseline=(--baseline-agent "$old") ;;
  jar) baseline=(--baseline-agent "$old") ;;
  none) ;;
esac
mkdir -p "$(dirname "$out")"
OVERHEAD_SKIP_BUILD=1 SUBDIR="$SUBDIR" exec bash example-server/overhead.sh --agent "$AGENT" "${baseline[@]}" \
  --agent-options "$options" --pairs "$pairs" --out "$out" -- "${pe[@]}"
