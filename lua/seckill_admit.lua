-- Flash-sale admission (秒杀资格判断): decides one attempt atomically.
-- KEYS[1] sale state hash {stock, begin, end} (ms), KEYS[2] buyers hash
-- user -> order id (with the sentinel field "0", so a lost hash is noticed),
-- KEYS[3] the voucher's order stream, KEYS[4] the user's rate-limit key for
-- this sale (GCRA arrival time, ms). All share the voucher's hash tag.
-- ARGV[1] user id, ARGV[2] order id, ARGV[3] voucher id, ARGV[4] emission
-- interval ms and ARGV[5] burst of the per-user limit (burst 0: no limit).
-- With an anti-bot token (seckill_token.lua): KEYS[5] the user's token key
-- and ARGV[6] the token, used up by this attempt whatever its answer.
-- ARGV[7], when given (ARGV[6] then "" without a token), is the attempt's
-- W3C traceparent: the entry carries it as field "tp" to the batch that
-- persists it (internal/seckill/trace.go).
-- Returns 0 accepted, 1 not started, 2 ended, 3 out of stock, 4 already
-- ordered, 6 token not valid (wrong, used or expired), -1 sale state missing
-- (the caller rebuilds it from MySQL), or {5, retry after ms} when the
-- user's attempts are over the limit.
--
-- The per-user limit is checked here rather than by its own script so an
-- attempt is one round trip; it counts attempts (the allowed ones whatever
-- their answer) like ratelimit_gcra.lua does, after the state check, so the
-- rebuild-and-retry of a missing state counts once.
--
-- The sale window is checked against Redis's clock (TIME), not the calling
-- instance's: every instance opens and closes the sale at the same moment
-- whatever its own clock says. (Redis 7 replicates scripts by their effects,
-- so TIME may come before the writes.)
local s = redis.call('HMGET', KEYS[1], 'stock', 'begin', 'end')
if not s[1] or redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst = tonumber(ARGV[5])
if burst > 0 then
  local interval = tonumber(ARGV[4])
  local tat = tonumber(redis.call('GET', KEYS[4]) or now)
  if tat < now then tat = now end
  local new_tat = tat + interval
  local allow_at = new_tat - interval * burst
  if allow_at > now then return {5, allow_at - now} end
  redis.call('SET', KEYS[4], new_tat, 'PX', new_tat - now)
end
if KEYS[5] then
  if redis.call('GET', KEYS[5]) ~= ARGV[6] then return 6 end
  redis.call('DEL', KEYS[5])
end
if now < tonumber(s[2]) then return 1 end
if now >= tonumber(s[3]) then return 2 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 4 end
if tonumber(s[1]) <= 0 then return 3 end
redis.call('HINCRBY', KEYS[1], 'stock', -1)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[7] then
  redis.call('XADD', KEYS[3], '*', 'order', ARGV[2], 'user', ARGV[1], 'voucher', ARGV[3], 'tp', ARGV[7])
else
  redis.call('XADD', KEYS[3], '*', 'order', ARGV[2], 'user', ARGV[1], 'voucher', ARGV[3])
end
return 0
