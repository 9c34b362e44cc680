-- GCRA (generic cell rate algorithm) admission for one key.
-- KEYS[1]  the limiter key (holds the theoretical arrival time, ms)
-- ARGV[1]  emission interval, ms (period / rate)
-- ARGV[2]  burst (tolerance = interval * burst)
-- ARGV[3]  optional, tests only: now, ms, in place of the server's clock
-- Returns {allowed (1|0), retry_after_ms}.
--
-- The time is Redis's own (TIME), not the caller's: every instance compares
-- against the same clock, so instances with skewed clocks agree on the
-- arrival times they write. (Redis 7 replicates scripts by their effects, so
-- TIME may come before the write.)
local now
if ARGV[3] then
  now = tonumber(ARGV[3])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - interval * burst
if allow_at > now then
  return {0, allow_at - now}
end
redis.call('SET', KEYS[1], new_tat, 'PX', new_tat - now)
return {1, 0}
