#!/usr/bin/env bash
# A/B of the web app's anonymous shop page (its Shop, ShopBlogs and
# ShopReviews operations, read from the app by scripts/bench/appops) between
# two environments of the same built server, interleaved so that machine
# noise hits both alike, on the real MariaDB and Redis with the demo data:
#   scripts/bench/ab-env.sh "GODEBUG=adaptivestackstart=1"   # B's settings; A: none
#   AB_ENV_A="HMDP_RESPONSE_CACHE=off" scripts/bench/ab-env.sh "HMDP_RESPONSE_CACHE=on"
# Each measurement starts the binary afresh (production settings), warms it
# for 2 s, then wrk -t2 -c50 for AB_DURATION; prints rps, p50/p99 and the
# server's CPU microseconds per request (/proc).
# Env: AB_ENV_A (""), AB_RUNS (3), AB_DURATION (8s), AB_MYSQL
# (root@tcp(127.0.0.1:3306)/), AB_DB (hmdp_abenv, re-created), AB_REDIS
# (127.0.0.1:6379), AB_OUT (bench-out/ab-env).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
B_ENV=${1:?usage: scripts/bench/ab-env.sh "B_SETTING=value ..."}
A_ENV=${AB_ENV_A:-}
RUNS=${AB_RUNS:-3}
DUR=${AB_DURATION:-8s}
MYSQL=${AB_MYSQL:-root@tcp(127.0.0.1:3306)/}
DB=${AB_DB:-hmdp_abenv}
REDIS=${AB_REDIS:-127.0.0.1:6379}
OUT=${AB_OUT:-$ROOT/bench-out/ab-env}
PREFIX=abenv:
PORT=18095
mkdir -p "$OUT"
myuser=${MYSQL%%@*}; myuser=${myuser%%:*}
myaddr=${MYSQL#*tcp(}; myaddr=${myaddr%%)*}
rdel() { redis-cli -h "${REDIS%:*}" -p "${REDIS##*:}" --scan --pattern "$PREFIX*" | xargs -r -n 1000 redis-cli -h "${REDIS%:*}" -p "${REDIS##*:}" DEL >/dev/null; }
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rdel' EXIT

go build -o "$OUT/hmdp" ./server
go build -o "$OUT/appops" ./scripts/bench/appops
mysql -u"$myuser" -h"${myaddr%:*}" -P"${myaddr##*:}" -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4"
rdel
"$OUT/appops" -root "$ROOT" -op Shop -vars '{"id":"1"}' >"$OUT/op-Shop.json"
"$OUT/appops" -root "$ROOT" -op ShopBlogs -vars '{"shopId":"1","orderBy":"NEWEST"}' >"$OUT/op-ShopBlogs.json"
"$OUT/appops" -root "$ROOT" -op ShopReviews -vars '{"shopId":"1","orderBy":"NEWEST"}' >"$OUT/op-ShopReviews.json"
PAGE=("$OUT/op-Shop.json" "$OUT/op-ShopBlogs.json" "$OUT/op-ShopReviews.json")
KEY=$(openssl genpkey -algorithm ed25519 | openssl pkey -pubout -outform DER | tail -c 32 | base64)
CLK=$(getconf CLK_TCK)

# measure NAME SETTINGS: one measurement of a fresh server with SETTINGS added.
measure() {
  local name=$1 settings=$2 b a line reqs
  # shellcheck disable=SC2086 # SETTINGS are words on purpose
  env HMDP_ENV=production HMDP_SMS_SENDER=log HMDP_LOG_LEVEL=info HMDP_RATE_LIMITS=on HMDP_SEED=true \
    HMDP_MYSQL_DSN="${MYSQL}${DB}" HMDP_REDIS_ADDR="$REDIS" HMDP_REDIS_PREFIX=$PREFIX \
    HMDP_ADDR=127.0.0.1:$PORT HMDP_PAY_PUBLIC_KEY="$KEY" $settings "$OUT/hmdp" >"$OUT/server-$name.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
  wrk -t2 -c50 -d2s -s "$ROOT/scripts/bench/wrk/page.lua" "http://127.0.0.1:$PORT/graphql" -- - "${PAGE[@]}" >/dev/null
  b=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
  line=$(wrk -t2 -c50 -d"$DUR" --latency -s "$ROOT/scripts/bench/wrk/page.lua" "http://127.0.0.1:$PORT/graphql" -- - "${PAGE[@]}" | grep '^RESULT')
  a=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
  reqs=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
  echo "$name ${line#RESULT } cpu_us=$(((a - b) * 1000000 / CLK / (reqs > 0 ? reqs : 1)))"
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true
  SERVER=""
}
echo "A: ${A_ENV:-(no settings)}; B: $B_ENV; $RUNS runs of $DUR each"
for _ in $(seq "$RUNS"); do
  measure A "$A_ENV"
  measure B "$B_ENV"
done | tee "$OUT/results.txt"
