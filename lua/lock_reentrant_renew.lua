-- Watchdog renewal: extend the lease only while the owner still holds the lock.
-- KEYS[1] the lock hash    ARGV[1] owner id    ARGV[2] lease, ms
-- Returns 1 renewed, 0 not held (expired, deleted, or someone else's).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
