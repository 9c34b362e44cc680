#!/usr/bin/env bash
# A/B of flash-sale admission between two revisions of the server, on the
# real MariaDB and Redis, interleaved so that machine noise hits both alike:
#   scripts/bench/ab.sh OLD_REV [NEW_REV (default: the work tree)]
# Each measurement starts the built binary afresh (so every user is one the
# instance has not seen, as in a real sale), creates a fresh voucher and
# sends wrk -t2 -c50 admissions for AB_DURATION, each by a distinct session
# made beforehand by `hmdp seed-sessions`. Prints rps, p50/p99 and the
# server's CPU microseconds per request (/proc), then the medians of the
# new/old ratios.
# Env: AB_RUNS (3), AB_DURATION (8s), AB_SESSIONS (120000), AB_MYSQL
# (root@tcp(127.0.0.1:3306)/), AB_DB (hmdp_ab, re-created), AB_REDIS
# (127.0.0.1:6379), AB_OUT (bench-out/ab).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OLD=${1:?usage: scripts/bench/ab.sh OLD_REV [NEW_REV]}
NEW=${2:-}
RUNS=${AB_RUNS:-3}
DUR=${AB_DURATION:-8s}
SESSIONS=${AB_SESSIONS:-120000}
MYSQL=${AB_MYSQL:-root@tcp(127.0.0.1:3306)/}
DB=${AB_DB:-hmdp_ab}
REDIS=${AB_REDIS:-127.0.0.1:6379}
OUT=${AB_OUT:-$ROOT/bench-out/ab}
PORT=18090
ADMIN=13900000000
mkdir -p "$OUT"
rm -f "$OUT/results.txt"

build() { # build REV BIN: REV empty = the work tree
  if [ -z "$1" ]; then go build -o "$2" ./server; return; fi
  local wt
  wt=$(mktemp -d)
  git worktree add -q --detach "$wt" "$1"
  (cd "$wt" && go build -o "$2" ./server)
  git worktree remove --force "$wt"
}
echo "== build old=$OLD new=${NEW:-work tree}"
build "$OLD" "$OUT/hmdp-old"
build "$NEW" "$OUT/hmdp-new"

myuser=${MYSQL%%@*}; myuser=${myuser%%:*}
myaddr=${MYSQL#*tcp(}; myaddr=${myaddr%%)*}
mysql -u"$myuser" -h"${myaddr%:*}" -P"${myaddr##*:}" -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4"
redis-cli -h "${REDIS%:*}" -p "${REDIS##*:}" --scan --pattern "ab:*" | xargs -r -n 1000 redis-cli -h "${REDIS%:*}" -p "${REDIS##*:}" DEL >/dev/null
export HMDP_ENV=production HMDP_SMS_SENDER=log HMDP_LOG_LEVEL=info HMDP_RATE_LIMITS=on
export HMDP_MYSQL_DSN="${MYSQL}${DB}" HMDP_REDIS_ADDR=$REDIS HMDP_REDIS_PREFIX=ab:
export HMDP_ADDR=127.0.0.1:$PORT HMDP_ADMIN_PHONES=$ADMIN HMDP_SEED=true HMDP_SESSION_TTL=4h
# Production refuses the payment sandbox's development key; nothing is paid here,
# so a throw-away key of the run does.
HMDP_PAY_PUBLIC_KEY=$(openssl genpkey -algorithm ed25519 | openssl pkey -pubout -outform DER | tail -c 32 | base64)
export HMDP_PAY_PUBLIC_KEY
echo "== sessions: $SESSIONS"
"$OUT/hmdp-new" seed-sessions -n 1 -first $ADMIN -out "$OUT/admin.txt" >"$OUT/seed.log" 2>&1
"$OUT/hmdp-new" seed-sessions -n "$SESSIONS" -first 15000000000 -out "$OUT/tokens.txt" >>"$OUT/seed.log" 2>&1
ADMIN_TOKEN=$(cut -d' ' -f1 "$OUT/admin.txt")

SERVER=
stop() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true; SERVER=; }
# At exit the run's Redis keys go too (its sessions would slow every SCAN of
# the tests sharing that Redis later).
finish() {
  stop
  redis-cli -h "${REDIS%:*}" -p "${REDIS##*:}" --scan --pattern "ab:*" | xargs -r -n 1000 redis-cli -h "${REDIS%:*}" -p "${REDIS##*:}" DEL >/dev/null
}
trap finish EXIT
measure() { # measure NAME BIN
  stop
  "$2" >"$OUT/server-$1.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
  local begin end v before after line reqs
  begin=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ)
  end=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
  v=$(curl -sf -H 'Content-Type: application/json' -H "Authorization: Bearer $ADMIN_TOKEN" --data '{"query":"mutation($i:CreateVoucherInput!){createVoucher(input:$i){id}}","variables":{"i":{"shopId":"1","title":"ab","payValue":100,"actualValue":200,"seckill":{"stock":100000000,"beginTime":"'"$begin"'","endTime":"'"$end"'"}}}}' "http://127.0.0.1:$PORT/graphql" | sed -E 's/.*"id":"([0-9]+)".*/\1/')
  sleep 1
  before=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
  line=$(WRK_THREADS=2 wrk -t2 -c50 -d"$DUR" --latency -s "$ROOT/scripts/bench/wrk/seckill.lua" "http://127.0.0.1:$PORT/graphql" -- "$OUT/tokens.txt" "$v" '"orderId"' | grep '^RESULT')
  after=$(awk '{print $14 + $15}' "/proc/$SERVER/stat")
  reqs=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
  echo "$1 ${line#RESULT } cpu_us=$(((after - before) * 1000000 / $(getconf CLK_TCK) / (reqs > 0 ? reqs : 1)))" | tee -a "$OUT/results.txt"
}
for run in $(seq "$RUNS"); do
  measure old "$OUT/hmdp-old"
  measure new "$OUT/hmdp-new"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
  { for (i=2;i<=NF;i++) { split($i,kv,"="); v[$1, kv[1], ++n[$1, kv[1]]] = kv[2] } }
  function med(a, c,   i, j, t) {
    for (i=1;i<=c;i++) for (j=i+1;j<=c;j++) if (a[j]<a[i]) { t=a[i]; a[i]=a[j]; a[j]=t }
    return (c%2) ? a[(c+1)/2] : (a[c/2]+a[c/2+1])/2
  }
  END {
    c = n["new", "rps"]
    for (i=1;i<=c;i++) { r[i] = v["new","rps",i] / v["old","rps",i]; u[i] = v["new","cpu_us",i] / v["old","cpu_us",i] }
    printf "median new/old: rps %.2f, CPU per request %.2f (%d interleaved pairs)\n", med(r, c), med(u, c), c
  }' "$OUT/results.txt"
