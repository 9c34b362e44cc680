-- GCRA (generic cell rate algorithm) admission for one key.
-- KEYS[1]  the limiter key (holds the theoretical arrival time, ms)
-- ARGV[1]  now, ms            ARGV[2] emission interval, ms (period / rate)
-- ARGV[3]  burst (tolerance = interval * burst)
-- Returns {allowed (1|0), retry_after_ms}.
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - interval * burst
if allow_at > now then
  return {0, allow_at - now}
end
redis.call('SET', KEYS[1], new_tat, 'PX', new_tat - now)
return {1, 0}
