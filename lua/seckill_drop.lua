-- Deletes a finished flash sale's drained order stream, and with it its
-- consumer group, so an instance's consumers stop reading it; atomically, so
-- no entry added meanwhile can be lost with it.
-- KEYS[1] the order stream, KEYS[2] the sale state hash (same hash tag).
-- ARGV[1] the sale's end (unix ms, from MySQL: used when the state is gone),
-- ARGV[2] grace (ms).
-- Returns 1 when the stream is gone (deleted now, or already), 0 when it is
-- kept: the sale is not over by Redis's clock plus the grace (admissions
-- XADD only while it is open, by that clock, in seckill_admit.lua), or the
-- stream holds entries, or some are pending (read, not yet acknowledged).
local finish = tonumber(redis.call('HGET', KEYS[2], 'end') or ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now < finish + tonumber(ARGV[2]) then
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 1
end
if redis.call('XLEN', KEYS[1]) > 0 then
  return 0
end
local p = redis.pcall('XPENDING', KEYS[1], 'persist')
if type(p) == 'table' and not p.err and tonumber(p[1]) > 0 then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
