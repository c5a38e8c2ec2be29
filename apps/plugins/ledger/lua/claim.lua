-- Claims unique values for one admission: all of them or none.
--
-- KEYS[1..n]  reservation hashes (fields: owner, state = pending|confirmed, tokens = JSON list, claimedAt)
-- ARGV[1]     owner: the claiming object's identity (group/Kind/namespace/name, or generated:<token>)
-- ARGV[2]     token: the uid of this admission call; Reconcile settles the claim by it
-- ARGV[3]     '1': only check (dryRun), write nothing
-- ARGV[4]     now, in ms since the epoch (claimedAt)
-- ARGV[5]     time to live of a pending key, in ms: a claim whose side effect never reached the
--             controller (the call timed out after the write) must not block the value forever.
--             settle.lua removes the TTL when it confirms.
-- ARGV[6]     ref: JSON {group, version, resource, namespace, name} of the claiming object, or ''.
--             Resync lists it, so the controller can look the object up.
--
-- Every write sets touchedAt = now: orphan.lua deletes a key only if it is unchanged since it was
-- listed (same touchedAt), so a claim made after the listing is never released by the resync.
--
-- Returns {0, i, holder} when KEYS[i] is held by another owner (nothing was written),
-- otherwise {1}: every key is now held by the owner, with the token recorded (unless checking only).
-- A key the owner already holds (pending or confirmed) gets the token too, so that a release racing
-- with this admission waits for it (release.lua answers 'busy' while tokens are pending).
local owner, token = ARGV[1], ARGV[2]

for i, key in ipairs(KEYS) do
  local holder = redis.call('HGET', key, 'owner')
  if holder and holder ~= owner then
    return {0, i, holder}
  end
end
if ARGV[3] == '1' then
  return {1}
end

for _, key in ipairs(KEYS) do
  local state = redis.call('HGET', key, 'state')
  if not state then
    redis.call('HSET', key, 'owner', owner, 'state', 'pending', 'tokens', cjson.encode({token}), 'claimedAt', ARGV[4])
    redis.call('PEXPIRE', key, ARGV[5])
    if ARGV[6] and ARGV[6] ~= '' then redis.call('HSET', key, 'ref', ARGV[6]) end
  else
    local tokens = cjson.decode(redis.call('HGET', key, 'tokens') or '[]')
    local present = false
    for _, t in ipairs(tokens) do
      if t == token then present = true end
    end
    if not present then
      table.insert(tokens, token)
      redis.call('HSET', key, 'tokens', cjson.encode(tokens))
    end
    if state == 'pending' then
      redis.call('PEXPIRE', key, ARGV[5])
    end
    if ARGV[6] and ARGV[6] ~= '' and not redis.call('HGET', key, 'ref') then redis.call('HSET', key, 'ref', ARGV[6]) end
  end
  redis.call('HSET', key, 'touchedAt', ARGV[4])
end
return {1}
