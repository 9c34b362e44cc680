-- GCRA admission for several keys at once: one event counts against every
-- key, or against none. All limits are checked first; only when every one
-- allows the event is it recorded in all of them. A refused event writes
-- nothing (a GCRA refusal leaves its own key as it was too), so a caller
-- refused by one limit spends nothing of the others.
-- KEYS[1..n]      the limiter keys (each holds its theoretical arrival time, ms);
--                 on Redis Cluster they must share a hash tag
-- ARGV[2i-1]      emission interval of KEYS[i], ms (period / rate)
-- ARGV[2i]        burst of KEYS[i]
-- ARGV[2n+1]      optional, tests only: now, ms, in place of the server's clock
-- Returns {allowed (1|0), retry_after_ms, refusing key's index (1-based; 0 when allowed)}:
-- when refused, the refusing key is the one that allows an event last, and
-- retry_after_ms is when it (and so every key) will.
local n = #KEYS
local now
if ARGV[2 * n + 1] then
  now = tonumber(ARGV[2 * n + 1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local new_tats = {}
local wait, worst = 0, 0
for i = 1, n do
  local interval = tonumber(ARGV[2 * i - 1])
  local burst = tonumber(ARGV[2 * i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < now then tat = now end
  local new_tat = tat + interval
  local allow_at = new_tat - interval * burst
  if allow_at > now and allow_at - now > wait then
    wait, worst = allow_at - now, i
  end
  new_tats[i] = new_tat
end
if worst > 0 then
  return {0, wait, worst}
end
for i = 1, n do
  redis.call('SET', KEYS[i], new_tats[i], 'PX', new_tats[i] - now)
end
return {1, 0, 0}
