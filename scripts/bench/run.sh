#!/usr/bin/env bash
# make bench-http: the built server under production settings on real MariaDB
# and Redis, loaded by wrk (closed loop) and scripts/load/loadgen (open loop,
# our Go load generator: k6 is AGPL-licensed) from separate
# processes, alternated in the same run with the yardsticks: bare Redis
# (redis-benchmark EVALSHA of the admission script / GET of the cached shop)
# and a minimal Go net/http server answering the same bytes. Prints one line
# per measurement and the medians with their ratios.
#
# Env: BENCH_DURATION (10s), BENCH_RUNS (3), BENCH_SESSIONS (100000),
# BENCH_CONNS (50), BENCH_MYSQL (root@tcp(127.0.0.1:3306)/), BENCH_DB
# (hmdp_bench, dropped and re-created), BENCH_REDIS (127.0.0.1:6379),
# BENCH_PREFIX (bench: , its keys are deleted first), BENCH_OUT (bench-out),
# BENCH_PROFILE (0; 1: the server's CPU and allocation profiles of each of its
# measurements in the first run, $BENCH_OUT/prof-NAME.cpu.pb.gz and
# .allocs.pb.gz, through HMDP_PPROF_ADDR on 127.0.0.1:18082; read them with
# `go tool pprof -top bench-out/hmdp bench-out/prof-NAME.cpu.pb.gz`).
# Short check: BENCH_DURATION=3s BENCH_RUNS=1 BENCH_SESSIONS=5000 make bench-http
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DUR=${BENCH_DURATION:-10s}
RUNS=${BENCH_RUNS:-3}
SESSIONS=${BENCH_SESSIONS:-100000}
CONNS=${BENCH_CONNS:-50}
MYSQL=${BENCH_MYSQL:-root@tcp(127.0.0.1:3306)/}
DB=${BENCH_DB:-hmdp_bench}
REDIS=${BENCH_REDIS:-127.0.0.1:6379}
PREFIX=${BENCH_PREFIX:-bench:}
OUT=${BENCH_OUT:-$ROOT/bench-out}
PORT=18080
BPORT=18081
ADMIN=13900000000
RHOST=${REDIS%:*}
RPORT=${REDIS##*:}
for tool in wrk redis-benchmark redis-cli mysql curl; do
  command -v $tool >/dev/null || { echo "bench-http needs $tool" >&2; exit 1; }
done
mkdir -p "$OUT"
rm -f "$OUT"/results.txt
PIDS=()
# At exit the processes stop and the run's Redis keys go (100 000 sessions
# left in a shared Redis slow every SCAN of the tests that run there later);
# BENCH_KEEP=1 keeps them for a look.
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  [ "${BENCH_KEEP:-0}" = 1 ] || redis-cli -h "$RHOST" -p "$RPORT" --scan --pattern "$PREFIX*" | xargs -r -n 1000 redis-cli -h "$RHOST" -p "$RPORT" DEL >/dev/null
}
trap cleanup EXIT

echo "== build"
go build -o "$OUT/hmdp" ./server
go build -o "$OUT/baseline" ./scripts/bench/baseline
go build -o "$OUT/loadgen" ./scripts/load/loadgen
go build -o "$OUT/appops" ./scripts/bench/appops

echo "== fresh back ends: database $DB, Redis keys $PREFIX*"
myuser=${MYSQL%%@*}; myuser=${myuser%%:*}
myaddr=${MYSQL#*tcp(}; myaddr=${myaddr%%)*}
mysql -u"$myuser" -h"${myaddr%:*}" -P"${myaddr##*:}" -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4"
redis-cli -h "$RHOST" -p "$RPORT" --scan --pattern "$PREFIX*" | xargs -r -n 1000 redis-cli -h "$RHOST" -p "$RPORT" DEL >/dev/null

# Production settings: rate limits on, info logging, metrics on (always).
export HMDP_ENV=production HMDP_SMS_SENDER=log HMDP_LOG_LEVEL=info HMDP_RATE_LIMITS=on
export HMDP_MYSQL_DSN="${MYSQL}${DB}" HMDP_REDIS_ADDR=$REDIS HMDP_REDIS_PREFIX=$PREFIX
export HMDP_ADDR=127.0.0.1:$PORT HMDP_ADMIN_PHONES=$ADMIN HMDP_SEED=true HMDP_SESSION_TTL=4h
PPROF=127.0.0.1:18082
[ "${BENCH_PROFILE:-0}" = 1 ] && export HMDP_PPROF_ADDR=$PPROF
# Production refuses the payment sandbox's development key; nothing is paid here,
# so a throw-away key of the run does.
HMDP_PAY_PUBLIC_KEY=$(openssl genpkey -algorithm ed25519 | openssl pkey -pubout -outform DER | tail -c 32 | base64)
export HMDP_PAY_PUBLIC_KEY

echo "== sessions: 1 admin, $SESSIONS users (seed-sessions, as a login does)"
"$OUT/hmdp" seed-sessions -n 1 -first $ADMIN -out "$OUT/admin.txt" >"$OUT/seed.log" 2>&1
start=$(date +%s)
"$OUT/hmdp" seed-sessions -n "$SESSIONS" -first 15000000000 -out "$OUT/tokens.txt" >>"$OUT/seed.log" 2>&1
echo "   $(wc -l <"$OUT/tokens.txt") sessions in $(($(date +%s) - start))s"
ADMIN_TOKEN=$(cut -d' ' -f1 "$OUT/admin.txt")

"$OUT/hmdp" >"$OUT/server.log" 2>&1 &
SERVER=$!
PIDS+=($SERVER)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

gql() { # gql TOKEN BODY
  curl -sf -H 'Content-Type: application/json' ${1:+-H "Authorization: Bearer $1"} --data "$2" "http://127.0.0.1:$PORT/graphql"
}
# voucher STOCK: a flash sale open now for an hour; prints its id.
voucher() {
  local begin end
  begin=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ)
  end=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
  gql "$ADMIN_TOKEN" '{"query":"mutation($i:CreateVoucherInput!){createVoucher(input:$i){id}}","variables":{"i":{"shopId":"1","title":"bench","payValue":100,"actualValue":200,"seckill":{"stock":'"$1"',"beginTime":"'"$begin"'","endTime":"'"$end"'"}}}}' |
    sed -E 's/.*"id":"([0-9]+)".*/\1/'
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
CLK=$(getconf CLK_TCK)

# The back ends' processes, for their CPU per request (0 when not local).
MYSQLD=$(pgrep -x mariadbd || pgrep -x mysqld || echo 0)
REDISD=$(pgrep -f "redis-server .*:$RPORT" | head -1 || true)
REDISD=${REDISD:-0}
ticks() { if [ "$1" = 0 ]; then echo 0; else cpu_ticks "$1"; fi; }

# wrk_run NAME PID URL SCRIPT ARGS...: one closed-loop measurement; CPU of PID
# (the server measured), of MariaDB and of Redis per request.
wrk_run() {
  local name=$1 pid=$2 url=$3 script=$4; shift 4
  local before after mb ma rb ra line reqs prof=""
  if [ "${BENCH_PROFILE:-0}" = 1 ] && [ "$pid" = "$SERVER" ] && [ ! -e "$OUT/prof-$name.cpu.pb.gz" ]; then
    # The CPU profile covers the measurement but its first and last second;
    # the allocation profile is the difference over the same span.
    curl -sf "http://$PPROF/debug/pprof/allocs" -o "$OUT/prof-$name.allocs0.pb.gz"
    (sleep 1; curl -sf "http://$PPROF/debug/pprof/profile?seconds=$((${DUR%s} - 2))" -o "$OUT/prof-$name.cpu.pb.gz") &
    prof=$!
  fi
  before=$(cpu_ticks "$pid"); mb=$(ticks "$MYSQLD"); rb=$(ticks "$REDISD")
  line=$(WRK_THREADS=2 wrk -t2 -c"$CONNS" -d"$DUR" --latency -s "$ROOT/scripts/bench/wrk/$script" "$url" -- "$@" | tee -a "$OUT/wrk.log" | grep '^RESULT')
  after=$(cpu_ticks "$pid"); ma=$(ticks "$MYSQLD"); ra=$(ticks "$REDISD")
  if [ -n "$prof" ]; then
    wait "$prof" || true
    curl -sf "http://$PPROF/debug/pprof/allocs" -o "$OUT/prof-$name.allocs1.pb.gz" &&
      go tool pprof -proto -base "$OUT/prof-$name.allocs0.pb.gz" "$OUT/prof-$name.allocs1.pb.gz" >"$OUT/prof-$name.allocs.pb.gz" 2>/dev/null || true
    rm -f "$OUT/prof-$name.allocs0.pb.gz" "$OUT/prof-$name.allocs1.pb.gz"
  fi
  reqs=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$line")
  reqs=$((reqs > 0 ? reqs : 1))
  echo "$name ${line#RESULT } cpu_us=$(((after - before) * 1000000 / CLK / reqs)) mysql_us=$(((ma - mb) * 1000000 / CLK / reqs)) redis_us=$(((ra - rb) * 1000000 / CLK / reqs))" | tee -a "$OUT/results.txt"
}
# redis_run NAME ARGS...: redis-benchmark of one command, 50 clients.
redis_run() {
  local name=$1 n=$2; shift 2
  local rps
  rps=$(redis-benchmark -h "$RHOST" -p "$RPORT" -c "$CONNS" -n "$n" --precision 3 -q "$@" | tr '\r' '\n' | grep -Eo '[0-9.]+ requests per second' | tail -1 | cut -d' ' -f1)
  echo "$name rps=${rps%.*}" | tee -a "$OUT/results.txt"
}
baseline() { # baseline BODYFILE: (re)start the minimal net/http server answering those bytes
  [ -n "${BASE:-}" ] && kill "$BASE" 2>/dev/null && wait "$BASE" 2>/dev/null || true
  "$OUT/baseline" -addr "127.0.0.1:$BPORT" -body "$1" &
  BASE=$!
  PIDS+=($BASE)
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$BPORT/" && break; sleep 0.1; done
}

URL=http://127.0.0.1:$PORT/graphql
BURL=http://127.0.0.1:$BPORT/graphql

# The bare-Redis admission: the same script on its own keys (one voucher's
# tag), huge stock, a distinct user per call (__rand_int__).
SHA=$(redis-cli -h "$RHOST" -p "$RPORT" SCRIPT LOAD "$(cat lua/seckill_admit.lua)")
rkeys() { echo "${PREFIX}rb:{$1}:state ${PREFIX}rb:{$1}:buyers ${PREFIX}rb:{$1}:orders ${PREFIX}rb:{$1}:limit:__rand_int__"; }
redis-cli -h "$RHOST" -p "$RPORT" HSET "${PREFIX}rb:{1}:state" stock 1000000000 begin 0 end 99999999999999 >/dev/null
redis-cli -h "$RHOST" -p "$RPORT" HSET "${PREFIX}rb:{1}:buyers" 0 0 >/dev/null
redis-cli -h "$RHOST" -p "$RPORT" HSET "${PREFIX}rb:{2}:state" stock 0 begin 0 end 99999999999999 >/dev/null
redis-cli -h "$RHOST" -p "$RPORT" HSET "${PREFIX}rb:{2}:buyers" 0 0 >/dev/null

# Responses the baseline answers with: the server's own bytes.
SOLD=$(voucher 1)
tok1=$(sed -n 1p "$OUT/tokens.txt" | cut -d' ' -f1)
gql "$tok1" '{"query":"mutation($v:ID!){seckillVoucher(voucherId:$v){orderId status}}","variables":{"v":"'"$SOLD"'"}}' >"$OUT/accepted.json"
tok2=$(sed -n 2p "$OUT/tokens.txt" | cut -d' ' -f1)
curl -s -H 'Content-Type: application/json' -H "Authorization: Bearer $tok2" --data '{"query":"mutation($v:ID!){seckillVoucher(voucherId:$v){orderId status}}","variables":{"v":"'"$SOLD"'"}}' "$URL" >"$OUT/soldout.json"
gql "" '{"query":"query($id:ID!){shop(id:$id){id name area address avgPrice score}}","variables":{"id":"1"}}' >"$OUT/shop.json"
SHOPKEY=$(redis-cli -h "$RHOST" -p "$RPORT" --scan --pattern "${PREFIX}cache:shop:1" | head -1)
echo "accepted: $(cat "$OUT/accepted.json")"
echo "sold out: $(cat "$OUT/soldout.json")"
echo "shop:     $(cat "$OUT/shop.json")"
echo "shop key: $SHOPKEY"
[ -n "$SHOPKEY" ] || { echo "the shop is not in the Redis cache" >&2; exit 1; }

# The web app's pages as it sends them (scripts/bench/appops reads the
# operations from its generated client): the shop page is Shop + ShopBlogs +
# ShopReviews, and MyOrders for a logged-in viewer; home is Home + HotBlogs.
op() { # op NAME [VARIABLES]: the app's request body for operation NAME
  local vars=${2:-}
  [ -n "$vars" ] || vars='{}'
  "$OUT/appops" -root "$ROOT" -op "$1" -vars "$vars" >"$OUT/op-$1.json"
}
op Shop '{"id":"1"}'
op ShopBlogs '{"shopId":"1","orderBy":"NEWEST"}'
op ShopReviews '{"shopId":"1","orderBy":"NEWEST"}'
op MyOrders '{"shopId":"1"}'
op Home
op HotBlogs
for o in Shop ShopBlogs ShopReviews Home HotBlogs; do
  curl -sf -H 'Content-Type: application/json' --data @"$OUT/op-$o.json" "$URL" >"$OUT/ans-$o.json"
  grep -q '"errors"' "$OUT/ans-$o.json" && { echo "$o answered errors: $(head -c 300 "$OUT/ans-$o.json")" >&2; exit 1; }
done
curl -sf -H 'Content-Type: application/json' -H "Authorization: Bearer $tok1" --data @"$OUT/op-MyOrders.json" "$URL" >"$OUT/ans-MyOrders.json"
SHOP_PAGE=("$OUT/op-Shop.json" "$OUT/op-ShopBlogs.json" "$OUT/op-ShopReviews.json")
HOME_PAGE=("$OUT/op-Home.json" "$OUT/op-HotBlogs.json")
page_baseline() { # the yardstick answering each of the pages' operations with the server's bytes
  [ -n "${BASE:-}" ] && kill "$BASE" 2>/dev/null && wait "$BASE" 2>/dev/null || true
  "$OUT/baseline" -addr "127.0.0.1:$BPORT" $(for o in Shop ShopBlogs ShopReviews MyOrders Home HotBlogs; do echo "-op $o=$OUT/ans-$o.json"; done) &
  BASE=$!
  PIDS+=($BASE)
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$BPORT/" && break; sleep 0.1; done
}

# drain waits until the consumers have persisted the sales' orders (the
# order count holds for 2 s): the previous run's purchases would otherwise be
# written to MySQL during the next measurements and counted as theirs.
drain() {
  local before now=-1
  while :; do
    before=$now
    now=$(mysql -u"$myuser" -h"${myaddr%:*}" -P"${myaddr##*:}" -N -e "SELECT COUNT(*) FROM $DB.tb_voucher_order")
    [ "$now" = "$before" ] && return
    sleep 2
  done
}

for run in $(seq "$RUNS"); do
  echo "== run $run/$RUNS ($DUR each, $CONNS connections)"
  drain
  # The app's pages (requests/s over requests per page = pages/s).
  sleep 6
  wrk_run page_shop_anon_server "$SERVER" "$URL" page.lua - "${SHOP_PAGE[@]}"
  wrk_run page_shop_user_server "$SERVER" "$URL" page.lua "$OUT/tokens.txt" "${SHOP_PAGE[@]}" "$OUT/op-MyOrders.json"
  wrk_run page_home_anon_server "$SERVER" "$URL" page.lua - "${HOME_PAGE[@]}"
  wrk_run page_home_user_server "$SERVER" "$URL" page.lua "$OUT/tokens.txt" "${HOME_PAGE[@]}"
  page_baseline
  wrk_run page_shop_anon_nethttp "$BASE" "$BURL" page.lua - "${SHOP_PAGE[@]}"
  wrk_run page_home_anon_nethttp "$BASE" "$BURL" page.lua - "${HOME_PAGE[@]}"
  # The purchase as the app sends it (the Seckill operation; a token first
  # only when the server asks for one, which it does not by default).
  PV=$(voucher 100000000)
  "$OUT/appops" -root "$ROOT" -op Seckill -vars '{"voucherId":"'"$PV"'"}' >"$OUT/op-Seckill.json"
  wrk_run purchase_app_server "$SERVER" "$URL" page.lua "$OUT/tokens.txt" "$OUT/op-Seckill.json"
  # Admission accepted: a fresh voucher per run, so every session makes one attempt on it.
  V=$(voucher 100000000)
  drain
  sleep 6 # past the session cache TTL: sessions are read from Redis again
  wrk_run seckill_ok_server "$SERVER" "$URL" seckill.lua "$OUT/tokens.txt" "$V" '"orderId"'
  baseline "$OUT/accepted.json"
  wrk_run seckill_ok_nethttp "$BASE" "$BURL" seckill.lua "$OUT/tokens.txt" "$V" '"orderId"'
  redis_run seckill_ok_evalsha 500000 -r 100000000 EVALSHA "$SHA" 4 $(rkeys 1) __rand_int__ 1 1 200 5
  # Sold out.
  drain
  sleep 6
  wrk_run seckill_soldout_server "$SERVER" "$URL" seckill.lua "$OUT/tokens.txt" "$SOLD" OUT_OF_STOCK
  baseline "$OUT/soldout.json"
  wrk_run seckill_soldout_nethttp "$BASE" "$BURL" seckill.lua "$OUT/tokens.txt" "$SOLD" OUT_OF_STOCK
  redis_run seckill_soldout_evalsha 1000000 -r 100000000 EVALSHA "$SHA" 4 $(rkeys 2) __rand_int__ 1 1 200 5
  # Cached shop(id), anonymous.
  wrk_run shop_server "$SERVER" "$URL" shop.lua 1
  baseline "$OUT/shop.json"
  wrk_run shop_nethttp "$BASE" "$BURL" shop.lua 1
  redis_run shop_get 1000000 GET "$SHOPKEY"
  # Open loop at 70% of this run's closed-loop peaks.
  for target in server nethttp; do
    peak=$(grep "^shop_$target " "$OUT/results.txt" | tail -1 | sed -E 's/.*rps=([0-9]+).*/\1/')
    u=$URL pid=$SERVER
    [ $target = nethttp ] && u=$BURL pid=$BASE
    before=$(cpu_ticks "$pid")
    line=$("$OUT/loadgen" open -url "$u" -rate $((peak * 7 / 10)) -duration "$DUR" -shop-id 1 2>>"$OUT/loadgen.log" | grep '^RESULT')
    after=$(cpu_ticks "$pid")
    echo "shop_open70_$target rate=$((peak * 7 / 10)) ${line#RESULT }" | tee -a "$OUT/results.txt"
  done
  redis-cli -h "$RHOST" -p "$RPORT" DEL "${PREFIX}rb:{1}:orders" >/dev/null
done

echo "== orders persisted during the sales: $(mysql -u"$myuser" -h"${myaddr%:*}" -P"${myaddr##*:}" -N -e "SELECT COUNT(*) FROM $DB.tb_voucher_order")"
echo "== medians of $RUNS runs"
awk -v OFS=' ' '
  { name=$1; for (i=2;i<=NF;i++) { split($i,kv,"="); v[name, kv[1], ++n[name, kv[1]]] = kv[2]; keys[name, kv[1]]=1; names[name]=1 } }
  function med(name, k,   c, i, j, t, a) {
    c = n[name, k]; if (!c) return ""
    for (i=1;i<=c;i++) a[i]=v[name,k,i]+0
    for (i=1;i<=c;i++) for (j=i+1;j<=c;j++) if (a[j]<a[i]) { t=a[i]; a[i]=a[j]; a[j]=t }
    return (c%2) ? a[(c+1)/2] : (a[c/2]+a[c/2+1])/2
  }
  END {
    split("page_shop_anon_server page_shop_anon_nethttp page_shop_user_server page_home_anon_server page_home_anon_nethttp page_home_user_server purchase_app_server seckill_ok_server seckill_ok_nethttp seckill_ok_evalsha seckill_soldout_server seckill_soldout_nethttp seckill_soldout_evalsha shop_server shop_nethttp shop_get shop_open70_server shop_open70_nethttp", order, " ")
    for (o=1; o in order; o++) { nm=order[o]; if (!(nm in names)) continue
      printf "%-26s rps=%s p50_us=%s p99_us=%s cpu_us=%s mysql_us=%s redis_us=%s\n", nm, med(nm,"rps"), med(nm,"p50_us"), med(nm,"p99_us"), med(nm,"cpu_us"), med(nm,"mysql_us"), med(nm,"redis_us") }
    printf "pages/s (requests/s over requests per page): shop anonymous %.0f, shop logged in %.0f, home anonymous %.0f, home logged in %.0f; net/http: shop %.0f, home %.0f\n",
      med("page_shop_anon_server","rps")/3, med("page_shop_user_server","rps")/4, med("page_home_anon_server","rps")/2, med("page_home_user_server","rps")/2,
      med("page_shop_anon_nethttp","rps")/3, med("page_home_anon_nethttp","rps")/2
    printf "page ratios to net/http: shop anonymous %.2f, home anonymous %.2f; p99 shop %.2f\n",
      med("page_shop_anon_server","rps")/med("page_shop_anon_nethttp","rps"), med("page_home_anon_server","rps")/med("page_home_anon_nethttp","rps"),
      med("page_shop_anon_server","p99_us")/med("page_shop_anon_nethttp","p99_us")
    printf "ratios: accepted/nethttp=%.2f accepted/evalsha=%.2f soldout/evalsha=%.2f shop/nethttp=%.2f shop_p99/nethttp_p99=%.2f\n",
      med("seckill_ok_server","rps")/med("seckill_ok_nethttp","rps"), med("seckill_ok_server","rps")/med("seckill_ok_evalsha","rps"),
      med("seckill_soldout_server","rps")/med("seckill_soldout_evalsha","rps"), med("shop_server","rps")/med("shop_nethttp","rps"),
      med("shop_server","p99_us")/med("shop_nethttp","p99_us")
  }' "$OUT/results.txt" | tee "$OUT/summary.txt"
