-- Records one failure in a fixed window: the counter starts its window
-- (PEXPIRE) with its first failure, so the window cannot be stretched by
-- failing again.
-- KEYS[1] the failure counter   ARGV[1] window in ms
-- Returns the number of failures in the window.
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
