#!/usr/bin/env bash
# Runs a command against a throw-away 3-master Redis Cluster on local ports:
#   scripts/redis-cluster.sh go test ./...
# The command sees HMDP_TEST_REDIS_ADDR=127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3.
# Needs redis-server and redis-cli (Debian package redis-server).
set -euo pipefail
base=${REDIS_CLUSTER_BASE_PORT:-31001}
dir=$(mktemp -d)
ports=("$base" "$((base + 1))" "$((base + 2))")
pids=()

cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

for p in "${ports[@]}"; do
	mkdir -p "$dir/$p"
	redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "$dir/$p/nodes.conf" \
		--cluster-node-timeout 2000 --save "" --appendonly no --dir "$dir/$p" --logfile "$dir/$p/log" &
	pids+=($!)
done
for p in "${ports[@]}"; do
	for _ in $(seq 50); do redis-cli -p "$p" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
addrs=()
for p in "${ports[@]}"; do addrs+=("127.0.0.1:$p"); done
redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes >/dev/null
for _ in $(seq 100); do
	redis-cli -p "$base" cluster info | grep -q 'cluster_state:ok' && break
	sleep 0.1
done
redis-cli -p "$base" cluster info | grep -q 'cluster_state:ok' || { echo "cluster did not come up" >&2; exit 1; }
echo "redis cluster up on ${addrs[*]}"

export HMDP_TEST_REDIS_ADDR
HMDP_TEST_REDIS_ADDR=$(IFS=,; echo "${addrs[*]}")
"$@"
