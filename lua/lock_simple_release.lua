-- Release a simple lock only if it is still ours (compare-and-delete), and
-- wake its waiters.
-- KEYS[1] the lock (a string holding the owner's random value)
-- KEYS[2] its release channel (same hash tag, so the script stays in one slot)
-- ARGV[1] the value this owner set
-- Returns 1 when released, 0 when the lock is not ours (expired, or someone else's).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', KEYS[2], 'released')
  return 1
end
return 0
