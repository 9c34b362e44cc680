-- Loads a session and slides its expiry in one round trip (GETEX is Redis 6.2+
-- and missing from the embedded Redis).
-- KEYS[1] the session key   ARGV[1] TTL in ms
local v = redis.call('GET', KEYS[1])
if v then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return v
