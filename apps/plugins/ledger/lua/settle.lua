-- Settles one admission's claim on one key, once the admission's outcome is known.
--
-- KEYS[1]  reservation hash
-- ARGV[1]  'PERSISTED' or 'NOT_PERSISTED'
-- ARGV[2]  token of the admission that claimed
-- ARGV[3]  owner recorded at the claim
-- ARGV[4]  identity of the persisted object (group/Kind/namespace/name), or '' when unknown
-- ARGV[5]  '1' when the persisted object carries the value: restore the key if it vanished
-- ARGV[6]  now, in ms since the epoch
-- ARGV[7]  uid of the persisted object, or '' when unknown: recorded on PERSISTED, so that resync can
--          tell the object from another one created under the same name since
--
-- Returns one of:
--   confirmed  the claim is kept; the key is confirmed, without expiry (and owned by the identity, for a generateName object)
--   restored   the key had vanished and the persisted object carries the value: recreated, confirmed
--   released   NOT_PERSISTED and no other admission held the key: deleted
--   kept       NOT_PERSISTED, but the key is confirmed or held by another pending admission of the owner
--   stale      the token is not recorded (already settled): nothing changed
--   absent     the key does not exist and there is nothing to restore
--   taken      another owner holds the key now: nothing changed
local outcome, token, owner, identity = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local key = KEYS[1]

local function remove_token(tokens)
  local kept, found = {}, false
  for _, t in ipairs(tokens) do
    if t == token then found = true else table.insert(kept, t) end
  end
  return kept, found
end

local function encode(tokens)
  if #tokens == 0 then return '[]' end
  return cjson.encode(tokens)
end

local holder = redis.call('HGET', key, 'owner')
if not holder then
  if outcome == 'PERSISTED' and ARGV[5] == '1' then
    local restored_owner = identity ~= '' and identity or owner
    redis.call('HSET', key, 'owner', restored_owner, 'state', 'confirmed', 'tokens', '[]', 'claimedAt', ARGV[6], 'touchedAt', ARGV[6])
    if ARGV[7] and ARGV[7] ~= '' then redis.call('HSET', key, 'uid', ARGV[7]) end
    return 'restored'
  end
  return 'absent'
end
if holder ~= owner and holder ~= identity then
  return 'taken'
end

local tokens, found = remove_token(cjson.decode(redis.call('HGET', key, 'tokens') or '[]'))

if outcome == 'PERSISTED' then
  redis.call('HSET', key, 'state', 'confirmed', 'tokens', encode(tokens))
  redis.call('PERSIST', key)
  redis.call('HSET', key, 'touchedAt', ARGV[6])
  if ARGV[7] and ARGV[7] ~= '' then redis.call('HSET', key, 'uid', ARGV[7]) end
  if identity ~= '' and string.sub(holder, 1, 10) == 'generated:' then
    redis.call('HSET', key, 'owner', identity)
  end
  if found then return 'confirmed' end
  return 'stale'
end

if not found then
  return 'stale'
end
if #tokens == 0 and redis.call('HGET', key, 'state') == 'pending' then
  redis.call('DEL', key)
  return 'released'
end
redis.call('HSET', key, 'tokens', encode(tokens))
return 'kept'
