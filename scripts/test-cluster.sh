#!/usr/bin/env bash
# make test-cluster: start a 3-master Redis Cluster on local ports (7101-7103
# unless HMDP_CLUSTER_PORT_BASE says otherwise), run the flash-sale, id and lock
# tests against it (real MySQL too when HMDP_TEST_MYSQL_DSN is set), stop it.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${HMDP_CLUSTER_PORT_BASE:-7100}
dir=$(mktemp -d)
ports=()
pids=()
cleanup() {
	for p in "${ports[@]}"; do redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true; done
	rm -rf "$dir"
}
trap cleanup EXIT
for i in 1 2 3; do
	p=$((base + i))
	ports+=("$p")
	mkdir -p "$dir/$p"
	redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "$dir/$p/nodes.conf" \
		--dir "$dir/$p" --save "" --appendonly no --daemonize yes --logfile "$dir/$p/redis.log"
done
for p in "${ports[@]}"; do
	for _ in $(seq 1 50); do redis-cli -p "$p" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
addrs=$(printf '127.0.0.1:%s ' "${ports[@]}")
redis-cli --cluster create $addrs --cluster-replicas 0 --cluster-yes >/dev/null
for _ in $(seq 1 100); do
	redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' && break
	sleep 0.1
done
redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' || { echo "cluster did not come up" >&2; exit 1; }
export HMDP_TEST_REDIS_ADDR=$(printf '127.0.0.1:%s,' "${ports[@]}" | sed 's/,$//')
echo "Redis Cluster at $HMDP_TEST_REDIS_ADDR"
${GO:-go} test -race -count=1 -timeout 10m ./internal/lock/ ./internal/idgen/ ./internal/seckill/
${GO:-go} test -race -count=1 -timeout 10m ./server/ -run 'FlashSale|OrderLifecycle|CreateVoucher'
