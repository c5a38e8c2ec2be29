-- Releases a reservation whose object is gone or was replaced (periodic resync), only if it is
-- still exactly what was listed: same owner and same touchedAt (no claim since the listing).
--
-- KEYS[1]  reservation hash
-- ARGV[1]  owner, as listed
-- ARGV[2]  touchedAt, as listed (claimedAt for keys written before touchedAt existed)
--
-- Returns one of:
--   released   deleted
--   changed    claimed or settled again since the listing: nothing changed (the next resync sees it)
--   not-owner  another owner holds it now: nothing changed
--   absent     already gone
local holder = redis.call('HGET', KEYS[1], 'owner')
if not holder then
  return 'absent'
end
if holder ~= ARGV[1] then
  return 'not-owner'
end
local touched = redis.call('HGET', KEYS[1], 'touchedAt') or redis.call('HGET', KEYS[1], 'claimedAt') or ''
if touched ~= ARGV[2] then
  return 'changed'
end
redis.call('DEL', KEYS[1])
return 'released'
