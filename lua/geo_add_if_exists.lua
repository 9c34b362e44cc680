-- Adds or moves one member of a GEO set only when the set exists: a missing
-- set is rebuilt whole from MySQL on the next read, and creating it here with
-- one member would make it look complete. KEYS[1] the set; ARGV lon, lat, member.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
return redis.call('GEOADD', KEYS[1], ARGV[1], ARGV[2], ARGV[3])
