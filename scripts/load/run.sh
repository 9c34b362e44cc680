#!/usr/bin/env bash
# The load run, inside scripts/lb.sh (make load): collects login codes, runs
# scripts/load/main.js with k6, kill -9s one instance halfway (LOAD_KILL=0:
# not), then checks MySQL: orders = accepted admissions, no oversell, each
# buyer once, and says how long after the kill errors went on.
#   LOAD_DURATION (60s) LOAD_USERS (3000 buyers) LOAD_STOCK (2/3 of the buyers: sells out after the kill)
#   LOAD_SUBSCRIBERS (10 feed websockets) LOAD_BROWSE_RATE (40/s) LOAD_KILL (1)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
k6=${K6:-$(go env GOPATH)/bin/k6}
dur=${LOAD_DURATION:-60s}
users=${LOAD_USERS:-3000}
stock=${LOAD_STOCK:-$((users * 2 / 3))}
subs=${LOAD_SUBSCRIBERS:-10}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sql() { $LB_MYSQL_CLI -N -B "$LB_DB" -e "$1"; }

echo "== sending login codes to $users buyers, $subs subscribers and the admin"
"$k6" run -q --summary-mode=disabled -e BASE_URL="$LB_URL" -e USERS="$users" -e SUBS="$subs" -e ADMIN="$LB_ADMIN" "$here/codes.js"
# {"msg":"sms code sent","phone":"…","code":"…"} lines of the three logs
grep -h '"msg":"sms code sent"' "$LB_LOGS"/[123].log |
	sed -n 's/.*"phone":"\([0-9]*\)".*"code":"\([0-9]*\)".*/"\1":"\2"/p' | paste -sd, - | sed 's/^/{/; s/$/}/' >"$out/codes.json"

echo "== k6: $dur, $users buyers for $stock units, $subs feed subscribers"
"$k6" run -q --out csv="$out/metrics.csv" -e BASE_URL="$LB_URL" -e USERS="$users" -e SUBS="$subs" -e STOCK="$stock" \
	-e DURATION="$dur" -e BROWSE_RATE="${LOAD_BROWSE_RATE:-40}" -e ADMIN="$LB_ADMIN" -e CODES="$out/codes.json" \
	-e SUMMARY="$out/summary.json" "$here/main.js" &
k6pid=$!
killed=""
if [ "${LOAD_KILL:-1}" != 0 ]; then
	secs=${dur%s}; [ "$secs" = "$dur" ] && secs=$((${dur%m} * 60))
	# setup (logins, voucher) takes a few seconds before the scenarios start
	sleep $((secs / 2 + 3))
	victim=$(echo "$LB_PIDS" | cut -d' ' -f2)
	kill -9 "$victim"
	killed=$(date +%s)
	echo "== killed instance 2 (pid $victim) at $(date -u +%T)"
fi
wait "$k6pid"

accepted=$(grep -o '"accepted":[0-9]*' "$out/summary.json" | cut -d: -f2)
voucher=$(grep -o '"voucher":"[0-9]*"' "$out/summary.json" | grep -o '[0-9]*')
echo "== checking MySQL (voucher $voucher, $accepted accepted admissions)"
orders=0
for _ in $(seq 120); do # an admission on the killed instance waits HMDP_ORDER_CLAIM_IDLE for a takeover
	orders=$(sql "SELECT COUNT(*) FROM tb_voucher_order WHERE voucher_id=$voucher")
	[ "$orders" -ge "$accepted" ] && break
	sleep 0.5
done
left=$(sql "SELECT stock FROM tb_seckill_voucher WHERE voucher_id=$voucher")
twice=$(sql "SELECT COUNT(*) FROM (SELECT user_id FROM tb_voucher_order WHERE voucher_id=$voucher GROUP BY user_id HAVING COUNT(*) > 1) t")
echo "orders $orders, accepted $accepted, stock left $left of $stock, buyers with two orders $twice"
fail=""
[ "$orders" = "$accepted" ] || { echo "FAIL: orders != accepted admissions" >&2; fail=1; }
[ "$left" -ge 0 ] && [ $((left + orders)) = "$stock" ] || { echo "FAIL: oversold (stock + orders != $stock)" >&2; fail=1; }
[ "$twice" = 0 ] || { echo "FAIL: a buyer has two orders" >&2; fail=1; }
if [ -n "$killed" ]; then
	# metric_name,timestamp,metric_value,...: the last failed step after the kill
	last=$(awk -F, -v k="$killed" '$1 ~ /^err_/ && $3 == 1 && $2 >= k - 1 { if ($2 > m) m = $2 } END { print m + 0 }' "$out/metrics.csv")
	n=$(awk -F, -v k="$killed" '$1 ~ /^err_/ && $3 == 1 && $2 >= k - 1 { n++ } END { print n + 0 }' "$out/metrics.csv")
	if [ "$last" = 0 ]; then echo "after the kill: no failed request"
	else echo "after the kill: $n failed requests, the last $((last - killed)) s after it"; fi
	[ "$last" = 0 ] || [ $((last - killed)) -le 10 ] || { echo "FAIL: errors went on more than 10 s after the kill" >&2; fail=1; }
fi
[ -z "$fail" ] && echo "load run OK"
[ -z "$fail" ]
