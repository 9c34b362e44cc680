#!/usr/bin/env bash
# Runs a command against three hmdp instances behind HAProxy, on the real
# back ends (a fresh MySQL database, the real Redis under a fresh prefix):
#   scripts/lb.sh scripts/load/run.sh
# The command sees LB_URL (the balancer), LB_PIDS (the instances' pids, space
# separated), LB_METRICS (their metrics listeners, host:port, in the same
# order), LB_LOGS (directory of their logs: 1.log 2.log 3.log), LB_DB (the
# MySQL database), LB_ADMIN (an admin's phone), LB_MYSQL_DSN, LB_REDIS_ADDR
# and LB_REDIS_PREFIX (the instances' keys). Needs haproxy (Debian package
# haproxy), MariaDB on 127.0.0.1:3306 and Redis.
#   LB_MYSQL_DSN  server DSN without a database (root@tcp(127.0.0.1:3306)/)
#   LB_MYSQL      client command for that server (mariadb -h127.0.0.1 -uroot)
#   LB_REDIS_ADDR Redis (127.0.0.1:6379)
#   LOAD_IMAGE_STORE=s3  the instances keep uploaded images in the bucket of
#                 scripts/s3-server.sh (HMDP_TEST_S3_*), under a prefix of this run
#   LB_BASE_PORT  first of the loopback ports used (21301: balancer, +1..+3
#                 instances, +11..+13 their metrics listeners)
set -euo pipefail
cd "$(dirname "$0")/.."
dsn=${LB_MYSQL_DSN:-root@tcp(127.0.0.1:3306)/}
mysql_cli=${LB_MYSQL:-mariadb -h127.0.0.1 -uroot}
redis_addr=${LB_REDIS_ADDR:-127.0.0.1:6379}
base=${LB_BASE_PORT:-21301}
dir=$(mktemp -d)
db="hmdp_load_$$"
prefix="load$$:"
admin=13900000000
pids=()
haproxy_pid=""

cleanup() {
	[ -n "$haproxy_pid" ] && kill "$haproxy_pid" 2>/dev/null || true
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	$mysql_cli -e "DROP DATABASE IF EXISTS $db" || true
	host=${redis_addr%:*} port=${redis_addr##*:}
	redis-cli -h "$host" -p "$port" --scan --pattern "$prefix*" | xargs -r -n 500 redis-cli -h "$host" -p "$port" del >/dev/null || true
	if [ -n "${LB_KEEP_LOGS:-}" ]; then cp -r "$dir" "$LB_KEEP_LOGS"; fi
	rm -rf "$dir"
}
trap cleanup EXIT

image_env=()
if [ "${LOAD_IMAGE_STORE:-}" = s3 ]; then
	if [ -z "${HMDP_TEST_S3_ENDPOINT:-}" ]; then
		echo "LOAD_IMAGE_STORE=s3 needs an S3 server: run this inside scripts/s3-server.sh (make load LOAD_IMAGE_STORE=s3 does)" >&2
		exit 1
	fi
	image_env=(HMDP_IMAGE_STORE="s3://$HMDP_TEST_S3_BUCKET/load$$/" HMDP_S3_ENDPOINT="$HMDP_TEST_S3_ENDPOINT"
		HMDP_S3_REGION="$HMDP_TEST_S3_REGION" HMDP_S3_ACCESS_KEY="$HMDP_TEST_S3_ACCESS_KEY" HMDP_S3_SECRET_KEY="$HMDP_TEST_S3_SECRET_KEY")
fi

echo "building the server"
go build -o "$dir/hmdp" ./server
$mysql_cli -e "CREATE DATABASE $db CHARACTER SET utf8mb4"

# scripts/load/loadgen's operation names, labelled in the metrics (others
# count as "other"); its test checks the list is whole.
load_operations=LoadLogin,LoadSendCode,LoadCreateVoucher,LoadFollow,LoadShop,LoadShops,LoadHotBlogs,LoadSeckill,LoadPost,LoadMe,LoadFeed,LoadLike,LoadVouchers,LoadOrders
start() { # start N [ENV=VALUE...]: instance N on port base+N
	local n=$1; shift
	mkdir -p "$dir/data$n"
	env HMDP_ADDR="127.0.0.1:$((base + n))" HMDP_MYSQL_DSN="${dsn}${db}" HMDP_REDIS_ADDR="$redis_addr" \
		HMDP_REDIS_PREFIX="$prefix" HMDP_DATA_DIR="$dir/data$n" HMDP_RATE_LIMITS=off HMDP_ADMIN_PHONES="$admin" \
		HMDP_TRUSTED_PROXIES=127.0.0.1 HMDP_ORDER_CLAIM_IDLE=5s HMDP_SEED=false \
		HMDP_METRICS_ADDR="127.0.0.1:$((base + 10 + n))" HMDP_METRICS_OPERATIONS="$load_operations" "${image_env[@]}" "$@" \
		"$dir/hmdp" >"$dir/$n.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 300); do
		curl -fs "http://127.0.0.1:$((base + n))/readyz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "instance $n did not come up:" >&2
	tail -20 "$dir/$n.log" >&2
	exit 1
}
# The first one migrates and seeds alone; the others find the schema there.
start 1 HMDP_SEED=true
start 2
start 3

cat >"$dir/haproxy.cfg" <<CFG
global
	maxconn 4000
defaults
	mode http
	timeout connect 2s
	timeout client 60s
	timeout server 60s
	# websockets: an upgraded connection lives as long as the subscription
	timeout tunnel 1h
	# a refused connection (dead instance) is retried on another one; a
	# request already sent is not (a flash-sale attempt must not run twice)
	retries 2
	option redispatch 1
	option forwardfor
frontend hmdp
	bind 127.0.0.1:$base
	default_backend instances
backend instances
	balance roundrobin
	option httpchk GET /readyz
	default-server check inter 500ms fall 2 rise 2
	server i1 127.0.0.1:$((base + 1))
	server i2 127.0.0.1:$((base + 2))
	server i3 127.0.0.1:$((base + 3))
CFG
haproxy -f "$dir/haproxy.cfg" -db >"$dir/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$base/healthz" >/dev/null || { echo "haproxy did not come up" >&2; cat "$dir/haproxy.log" >&2; exit 1; }
echo "3 instances behind haproxy on http://127.0.0.1:$base (database $db, redis prefix $prefix)"

export LB_URL="http://127.0.0.1:$base" LB_PIDS="${pids[*]}" LB_LOGS="$dir" LB_DB="$db" LB_ADMIN="$admin" LB_MYSQL_CLI="$mysql_cli" \
	LB_METRICS="127.0.0.1:$((base + 11)) 127.0.0.1:$((base + 12)) 127.0.0.1:$((base + 13))" \
	LB_MYSQL_DSN="$dsn" LB_REDIS_ADDR="$redis_addr" LB_REDIS_PREFIX="$prefix"
"$@"
