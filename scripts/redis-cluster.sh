#!/usr/bin/env bash
# Runs a command against a throw-away 3-master Redis Cluster on local ports:
#   scripts/redis-cluster.sh go test ./...
# The command sees HMDP_TEST_REDIS_ADDR=127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3.
# Needs redis-server and redis-cli (Debian package redis-server).
set -euo pipefail
# Each node also listens on its port + 10000 (the cluster bus). Both must stay
# below the kernel's ephemeral range (32768 and up by default), or a test's own
# outgoing connection can hold a bus port and the node fails to start.
base=${REDIS_CLUSTER_BASE_PORT:-21001}
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
	up=""
	for _ in $(seq 200); do
		if redis-cli -p "$p" ping >/dev/null 2>&1; then up=1; break; fi
		sleep 0.1
	done
	if [ -z "$up" ]; then
		echo "redis-server on port $p did not start:" >&2
		cat "$dir/$p/log" >&2 || true
		exit 1
	fi
done
addrs=()
for p in "${ports[@]}"; do addrs+=("127.0.0.1:$p"); done
show_logs() { for p in "${ports[@]}"; do echo "--- redis-server :$p log" >&2; cat "$dir/$p/log" >&2 || true; done; }
if ! redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1; then
	cat "$dir/create.log" >&2
	show_logs
	exit 1
fi
for _ in $(seq 100); do
	redis-cli -p "$base" cluster info | grep -q 'cluster_state:ok' && break
	sleep 0.1
done
redis-cli -p "$base" cluster info | grep -q 'cluster_state:ok' || { echo "cluster did not come up" >&2; show_logs; exit 1; }
echo "redis cluster up on ${addrs[*]}"

export HMDP_TEST_REDIS_ADDR
HMDP_TEST_REDIS_ADDR=$(IFS=,; echo "${addrs[*]}")
"$@"
