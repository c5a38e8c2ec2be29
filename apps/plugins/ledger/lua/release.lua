-- Releases a value its owner gave up (UPDATE to another value, or DELETE), once that is persisted.
--
-- KEYS[1]  reservation hash
-- ARGV[1]  owner: the identity of the object that gave the value up
--
-- Returns one of:
--   released   deleted
--   busy       an admission of the owner holds a pending claim on it: retry once that is settled
--   not-owner  another owner holds it now (released and claimed again meanwhile): nothing changed
--   absent     already gone
local holder = redis.call('HGET', KEYS[1], 'owner')
if not holder then
  return 'absent'
end
if holder ~= ARGV[1] then
  return 'not-owner'
end
local tokens = cjson.decode(redis.call('HGET', KEYS[1], 'tokens') or '[]')
if #tokens > 0 then
  return 'busy'
end
redis.call('DEL', KEYS[1])
return 'released'
