-- Checks a login code and consumes it.
-- KEYS[1]  the code hash {code, tries} of one phone
-- ARGV[1]  the code the client sent      ARGV[2] wrong guesses allowed
-- Returns 1: right (the code is deleted: single use)
--         0: wrong (one guess used; the code is deleted after the last allowed guess)
--        -1: no code (never sent, expired, used or voided)
local code = redis.call('HGET', KEYS[1], 'code')
if not code then return -1 end
if code == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
local tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
if tries >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
return 0
