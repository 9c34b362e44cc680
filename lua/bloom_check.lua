-- Bloom filter membership: KEYS[1] the bitmap, KEYS[2] the "filled" marker;
-- ARGV the bit offsets of one id. Returns -1 when the filter is not filled
-- (callers must not trust it then), 0 when the id is certainly absent, 1 when
-- it may be present.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
for i = 1, #ARGV do
  if redis.call('GETBIT', KEYS[1], ARGV[i]) == 0 then
    return 0
  end
end
return 1
