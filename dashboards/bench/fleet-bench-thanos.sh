#!/usr/bin/env bash
# Fleet overview at scale through Thanos Query, side by side with one Prometheus holding the same series.
#   bash dashboards/bench/fleet-bench-thanos.sh [INSTANCES=1500] [MINUTES=10] [REPEATS=20] [JSON_OUT]
#   FLEET_BENCH_BLOCKS=DIR bash dashboards/bench/fleet-bench-thanos.sh ...   # keep/reuse the blocks in DIR
#   (REPEATS=0 only generates them)
#   FLEET_BENCH_QUERY_FLAGS='--query.promql-engine=thanos' bash ...   # extra flags for thanos query
# Topology (what an operator runs): two clusters, each half of the fleet, each scraped by an HA pair of
# Prometheus servers (external labels cluster, replica; the same backfilled blocks in both replicas),
# a Thanos sidecar per Prometheus serving its TSDB, and one Thanos Query deduplicating on `replica`.
# The other arm is one Prometheus holding both clusters' blocks. Every query of fleet-overview.json
# runs REPEATS times on each arm, alternating; prints a Markdown table (docs/benchmarks.md quotes it)
# with p50/p95/max per arm and whether both answered the same. Loopback only; cleans up.
# Needs: BLOCKSCOPE_THANOS (export "$(bash .ci/thanos.sh | tail -1)"), BLOCKSCOPE_PROMETHEUS3
# (export "$(bash .ci/prometheus3.sh | tail -1)"; else prometheus/promtool on PATH), python3, curl.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
instances="${1:-1500}" minutes="${2:-10}" repeats="${3:-20}" json_out="${4:-}"
bin="${BLOCKSCOPE_PROMETHEUS3:+$BLOCKSCOPE_PROMETHEUS3/}"
prometheus="${bin}prometheus" promtool="${bin}promtool"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ready() { for _ in $(seq 600); do curl -sf "$1" >/dev/null && return 0; sleep 0.5; done; echo "not ready: $1" >&2; exit 1; }

# FLEET_BENCH_BLOCKS=DIR keeps the backfilled blocks there and reuses them on the next run of the same
# size (generating 15,000 instances takes minutes).
blocks="${FLEET_BENCH_BLOCKS:-$work/blocks}"
mkdir -p "$blocks"
half=$(( instances / 2 ))
if [ "$(cut -d' ' -f1,2 "$blocks/stamp" 2>/dev/null)" = "$instances $minutes" ]; then
  read -r _ _ end series < "$blocks/stamp"
  echo "== reusing $series series of $instances instances from $blocks" >&2
else
  rm -rf "$blocks/a" "$blocks/b" "$blocks/stamp"
  end=$(( $(date +%s) - 120 ))
  echo "== $instances instances in 2 clusters, $minutes min of 15 s samples" >&2
  t0=$SECONDS
  for c in a b; do
    first=0 count=$half
    [ "$c" = b ] && first=$half count=$(( instances - half ))
    python3 "$here/fleet_series.py" "$count" "$minutes" "$end" "$first" "$c" > "$work/$c.om"
    # its block table: ULID, min, max, duration, samples, chunks, series, size; a series in two blocks counts once
    "$promtool" tsdb create-blocks-from openmetrics "$work/$c.om" "$blocks/$c" \
      | awk 'NR > 1 && $7 > m { m = $7 } END { print m + 0 }' > "$work/series-$c"
    rm "$work/$c.om"
  done
  series=$(( $(cat "$work/series-a") + $(cat "$work/series-b") ))
  echo "$instances $minutes $end $series" > "$blocks/stamp"
  echo "== $series series generated and backfilled in $(( SECONDS - t0 )) s ($(du -sh "$blocks" | cut -f1) of blocks)" >&2
fi
[ "$repeats" -gt 0 ] || exit 0  # REPEATS=0: only generate the blocks (into FLEET_BENCH_BLOCKS)
thanos="${BLOCKSCOPE_THANOS:?export \"\$(bash .ci/thanos.sh | tail -1)\" first}"

# One Prometheus, both clusters' blocks: they overlap in time, so it merges them (vertical compaction)
# before the measurement starts.
mkdir "$work/single"
cp -r "$blocks"/a/* "$blocks"/b/* "$work/single/"
printf 'global:\n  scrape_interval: 15s\n' > "$work/single.yml"
single=$(port)
"$prometheus" --config.file="$work/single.yml" --storage.tsdb.path="$work/single" \
  --storage.tsdb.retention.time=30d --web.listen-address="127.0.0.1:$single" --log.level=warn \
  > "$work/single.log" 2>&1 &
pids+=($!)

# The pairs: each replica a copy of its cluster's blocks, 2 h blocks so the sidecar may serve them.
endpoints=()
for c in a b; do
  for r in 0 1; do
    cp -r "$blocks/$c" "$work/tsdb-$c$r"
    printf 'global:\n  scrape_interval: 15s\n  external_labels:\n    cluster: %s\n    replica: "%s"\n' "$c" "$r" > "$work/$c$r.yml"
    pp=$(port) gp=$(port) hp=$(port)
    "$prometheus" --config.file="$work/$c$r.yml" --storage.tsdb.path="$work/tsdb-$c$r" \
      --storage.tsdb.min-block-duration=2h --storage.tsdb.max-block-duration=2h --storage.tsdb.retention.time=30d \
      --web.listen-address="127.0.0.1:$pp" --log.level=warn > "$work/prometheus-$c$r.log" 2>&1 &
    pids+=($!)
    ready "http://127.0.0.1:$pp/-/ready"
    "$thanos" sidecar --tsdb.path="$work/tsdb-$c$r" --prometheus.url="http://127.0.0.1:$pp" \
      --grpc-address="127.0.0.1:$gp" --http-address="127.0.0.1:$hp" --log.level=warn > "$work/sidecar-$c$r.log" 2>&1 &
    pids+=($!)
    ready "http://127.0.0.1:$hp/-/ready"
    endpoints+=("--endpoint=127.0.0.1:$gp")
  done
done
query=$(port) qgrpc=$(port)
"$thanos" query --http-address="127.0.0.1:$query" --grpc-address="127.0.0.1:$qgrpc" --query.replica-label=replica \
  "${endpoints[@]}" ${FLEET_BENCH_QUERY_FLAGS:-} --log.level=warn > "$work/query.log" 2>&1 &
pids+=($!)
ready "http://127.0.0.1:$query/-/ready"
# Both arms must see the whole fleet before anything is timed (a sidecar that died answers nothing).
count_up() {
  curl -sf "$1/api/v1/query?query=count(up)&time=$end" | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'
}
for _ in $(seq 120); do
  [ "$(count_up "http://127.0.0.1:$query")" = "$instances" ] && break
  sleep 0.5
done
[ "$(count_up "http://127.0.0.1:$query")" = "$instances" ] \
  || { echo "Thanos Query does not see $instances instances:" >&2; tail -n 20 "$work"/sidecar-*.log "$work/query.log" >&2; exit 1; }
ready "http://127.0.0.1:$single/-/ready"
# Wait until the single Prometheus has merged the overlapping blocks into one per time range.
want=$(find "$blocks/a" -mindepth 1 -maxdepth 1 -type d | wc -l)
for _ in $(seq 600); do
  have=$(find "$work/single" -mindepth 2 -maxdepth 2 -name meta.json | wc -l)
  [ "$have" -le "$want" ] && ! ls -d "$work"/single/*.tmp* >/dev/null 2>&1 && break
  sleep 1
done
[ "$(count_up "http://127.0.0.1:$single")" = "$instances" ] || { echo "one Prometheus does not see $instances instances" >&2; exit 1; }
echo "== single Prometheus: $have block(s); measuring" >&2
FLEET_BENCH_INSTANCES=$instances FLEET_BENCH_SERIES=$series \
FLEET_BENCH_COMMAND="${FLEET_BENCH_QUERY_FLAGS:+FLEET_BENCH_QUERY_FLAGS='$FLEET_BENCH_QUERY_FLAGS' }bash dashboards/bench/fleet-bench-thanos.sh $instances $minutes $repeats" \
  python3 "$here/fleet_queries.py" "one-prometheus=http://127.0.0.1:$single,thanos=http://127.0.0.1:$query" \
  "$here/../grafana/fleet-overview.json" "$end" "$minutes" "$repeats" ${json_out:+--json "$json_out"}
