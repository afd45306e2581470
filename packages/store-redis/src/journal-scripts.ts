/**
 * The journal's atomic steps as Lua scripts: each one changes a row and every index that mentions
 * it together, so a crash or a concurrent process never sees one without the other.
 */
import { ADD_OUTBOX_LUA } from './outbox-scripts.js';
import { RedisScript } from './script.js';

/**
 * De-duplicate and journal in one step; with ARGV[4] = "1", also supersede: every row of the
 * pull request's line still queued and never started leaves the line as `superseded`, naming
 * the new row (its rev moves on, so a worker's guarded markRunning reads it again and stops).
 * With a coalesce window (ARGV[7] > 0), the new row takes over the superseded rows' burst:
 * `coalescedTiming` in Lua (its `nextAttemptAt`, `burstStartedAt` and `coalesced`).
 * With lifecycle events (ARGV[9] not empty: `{prefix, accepted, superseded}`), the same script
 * adds the new row's `accepted` messages and, for each row it supersedes, one message per
 * template of `superseded`: the template's body with that row's own facts filled in, and that
 * row's trace context.
 * KEYS: 1 idempotency key, 2 seq counter, 3 delivery hash, 4 all, 5 status:queued, 6 route,
 *       7 route-status:queued, 8 delivery-id, 9 the pull request's line (used when ARGV[3] is 1),
 *       10 status:superseded, 11 route-status:superseded, 12 finished, 13 outbox due,
 *       14 outbox expires
 * ARGV: 1 window ms, 2 journal id, 3 "1" to join the line, 4 "1" to supersede,
 *       5 delivery hash prefix, 6 now ms, 7 coalesce window ms (0: none), 8 coalesce max wait ms,
 *       9 lifecycle events as JSON, or "", 10… hash field/value pairs
 * Reply: [seq, nextAttemptAt, burstStartedAt, coalesced, superseded ids…], or nil for a duplicate.
 */
export const ACCEPT = new RedisScript(
  'accept',
  `${ADD_OUTBOX_LUA}
if not redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1]) then return nil end
local seq = redis.call('INCR', KEYS[2])
local events = nil
if ARGV[9] ~= '' then events = cjson.decode(ARGV[9]) end
local superseded = {}
local now = tonumber(ARGV[6])
local burst = now
local coalesced = 0
if ARGV[3] == '1' and ARGV[4] == '1' then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[9], 0, -1)) do
    local row = ARGV[5] .. id
    local fields = redis.call('HMGET', row, 'status', 'startedAt', 'seq', 'receivedAt',
      'burstStartedAt', 'coalesced', 'route', 'deliveryId', 'event', 'action', 'maxAttempts',
      'traceContext')
    if fields[1] == 'queued' and not fields[2] then
      burst = math.min(burst, tonumber(fields[5] or fields[4]))
      coalesced = coalesced + tonumber(fields[6] or '0') + 1
      redis.call('HSET', row, 'status', 'superseded', 'supersededBy', ARGV[2], 'finishedAt', ARGV[6])
      redis.call('HINCRBY', row, 'rev', 1)
      redis.call('ZREM', KEYS[5], id)
      redis.call('ZREM', KEYS[7], id)
      redis.call('ZADD', KEYS[10], fields[3], id)
      redis.call('ZADD', KEYS[11], fields[3], id)
      redis.call('ZADD', KEYS[12], ARGV[6], id)
      redis.call('ZREM', KEYS[9], id)
      superseded[#superseded + 1] = id
      if events then
        for k, template in ipairs(events.superseded) do
          local body = cjson.decode(template.body)
          body.data.route = fields[7]
          body.data.journal_id = id
          body.data.delivery_id = fields[8]
          body.data.sender_event = fields[9]
          body.data.action = fields[10] or cjson.null
          body.data.max_attempts = tonumber(fields[11])
          body.data.timings.received_at = tonumber(fields[4])
          addOutbox(events.prefix, KEYS[13], KEYS[14], {
            id = 'msg_' .. ARGV[2] .. '_' .. id .. '_' .. k, destination = template.destination,
            body = cjson.encode(body), createdAt = template.createdAt,
            expiresAt = template.expiresAt, traceContext = fields[12] or nil })
        end
      end
    end
  end
end
redis.call('HSET', KEYS[3], 'seq', seq, unpack(ARGV, 10))
local nextAttemptAt = now
local window = tonumber(ARGV[7])
if window > 0 then
  nextAttemptAt = math.max(now, math.min(now + window, burst + tonumber(ARGV[8])))
  redis.call('HSET', KEYS[3], 'nextAttemptAt', nextAttemptAt, 'burstStartedAt', burst,
    'coalesced', coalesced)
end
for i = 4, 8 do redis.call('ZADD', KEYS[i], seq, ARGV[2]) end
if ARGV[3] == '1' then redis.call('ZADD', KEYS[9], seq, ARGV[2]) end
if events then
  for _, m in ipairs(events.accepted) do addOutbox(events.prefix, KEYS[13], KEYS[14], m) end
end
return {seq, nextAttemptAt, burst, coalesced, unpack(superseded)}
`,
);

/**
 * One guarded change (see row-changes.ts): applied only if the row's rev is still ARGV[1], with
 * the lifecycle messages it carries (`change.outbox`), so both happen or neither.
 * KEYS: 1 delivery hash, 2 status (old), 3 status (new), 4 route-status (old), 5 route-status (new),
 *       6 all, 7 route, 8 delivery-id, 9 finished, 10 idempotency key, 11 line, 12 seq counter,
 *       13 the pull request's delivered rows, 14 outbox due, 15 outbox expires
 * ARGV: 1 expected rev, 2 the change as JSON, 3 outbox hash prefix
 * Reply: the row after the change (HGETALL), 0 when the row is gone, -1 when rev moved on.
 */
export const APPLY = new RedisScript(
  'apply',
  `${ADD_OUTBOX_LUA}
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return 0 end
if rev ~= ARGV[1] then return -1 end
local change = cjson.decode(ARGV[2])
local id = redis.call('HGET', KEYS[1], 'id')
local seq = redis.call('HGET', KEYS[1], 'seq')
if change.newSeq then
  seq = redis.call('INCR', KEYS[12])
  redis.call('HSET', KEYS[1], 'seq', seq)
  for i = 6, 8 do redis.call('ZADD', KEYS[i], seq, id) end
end
if change.status then
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[4], id)
  redis.call('HSET', KEYS[1], 'status', change.status)
end
if change.status or change.newSeq then
  redis.call('ZADD', KEYS[3], seq, id)
  redis.call('ZADD', KEYS[5], seq, id)
end
if change.set then
  for field, value in pairs(change.set) do redis.call('HSET', KEYS[1], field, value) end
end
if change.unset and #change.unset > 0 then redis.call('HDEL', KEYS[1], unpack(change.unset)) end
if change.finishedAt then redis.call('ZADD', KEYS[9], change.finishedAt, id) end
if change.unfinish then redis.call('ZREM', KEYS[9], id) end
if change.release and redis.call('GET', KEYS[10]) == id then redis.call('DEL', KEYS[10]) end
if change.leaveLine then redis.call('ZREM', KEYS[11], id) end
if change.joinLine then redis.call('ZADD', KEYS[11], seq, id) end
if change.status and redis.call('HEXISTS', KEYS[1], 'orderKey') == 1 then
  if change.status == 'delivered' then redis.call('ZADD', KEYS[13], seq, id)
  else redis.call('ZREM', KEYS[13], id) end
end
if change.outbox then
  for _, m in ipairs(change.outbox) do addOutbox(ARGV[3], KEYS[14], KEYS[15], m) end
end
redis.call('HINCRBY', KEYS[1], 'rev', 1)
return redis.call('HGETALL', KEYS[1])
`,
);

/**
 * Writes fields of a row that still exists (a pruned row is not brought back half-empty).
 * KEYS: 1 delivery hash. ARGV: field/value pairs. Reply: 1, or 0 when the row is gone.
 */
export const SAVE_FIELDS = new RedisScript(
  'save-fields',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
`,
);

/**
 * Deletes a finished row older than the retention, with its index entries, if it did not change
 * since it was read.
 * KEYS: 1 delivery hash, 2 status, 3 route-status, 4 all, 5 route, 6 delivery-id, 7 finished, 8 line,
 *       9 the pull request's delivered rows
 * ARGV: 1 expected rev, 2 older-than ms, 3 journal id. Reply: 1 when deleted.
 */
export const PRUNE_ROW = new RedisScript(
  'prune-row',
  `
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then
  redis.call('ZREM', KEYS[7], ARGV[3])
  return 0
end
if rev ~= ARGV[1] then return 0 end
local finishedAt = tonumber(redis.call('HGET', KEYS[1], 'finishedAt') or '')
if not finishedAt or finishedAt >= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
for i = 2, 9 do redis.call('ZREM', KEYS[i], ARGV[3]) end
return 1
`,
);
