/**
 * The outbox's atomic steps as Lua scripts. `ADD_OUTBOX_LUA` is also part of the journal's
 * accept and apply scripts, so a status change and its lifecycle events are one script.
 */
import { RedisScript } from './script.js';

/**
 * A Lua function: adds one message (`{id, destination, body, createdAt, expiresAt,
 * traceContext?}`, strings) unless its id is there already; due at its `createdAt`.
 */
export const ADD_OUTBOX_LUA = `
local function addOutbox(prefix, dueKey, expiresKey, m)
  local key = prefix .. m.id
  if redis.call('EXISTS', key) == 1 then return end
  redis.call('HSET', key, 'id', m.id, 'destination', m.destination, 'body', m.body,
    'createdAt', m.createdAt, 'expiresAt', m.expiresAt, 'attempts', '0')
  if m.traceContext then redis.call('HSET', key, 'traceContext', m.traceContext) end
  redis.call('ZADD', dueKey, m.createdAt, m.id)
  redis.call('ZADD', expiresKey, m.expiresAt, m.id)
end
`;

/**
 * Adds messages (a target's answers).
 * KEYS: 1 due, 2 expires. ARGV: 1 hash prefix, 2 the messages as a JSON array.
 */
export const ENQUEUE_OUTBOX = new RedisScript(
  'outbox-enqueue',
  `${ADD_OUTBOX_LUA}
for _, m in ipairs(cjson.decode(ARGV[2])) do addOutbox(ARGV[1], KEYS[1], KEYS[2], m) end
return 1
`,
);

/**
 * Drops what expired by now (at most 1,000 a call), then claims up to ARGV[3] due messages until
 * ARGV[2] under the token ARGV[4].
 * KEYS: 1 due, 2 expires. ARGV: 1 now, 2 lease end, 3 limit, 4 claim token, 5 hash prefix.
 * Reply: [expired count, [HGETALL of each claimed message…]].
 */
export const CLAIM_OUTBOX = new RedisScript(
  'outbox-claim',
  `
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, id in ipairs(expired) do
  redis.call('DEL', ARGV[5] .. id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
end
local claimed = {}
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do
  local key = ARGV[5] .. id
  if redis.call('EXISTS', key) == 1 then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    redis.call('HSET', key, 'claim', ARGV[4])
    claimed[#claimed + 1] = redis.call('HGETALL', key)
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
  end
end
return {#expired, claimed}
`,
);

/**
 * Settles a message held under the claim ARGV[2]: `done` removes it, `retry` and `defer` make it
 * due at ARGV[4] (`retry` counts the try and keeps its error ARGV[5]).
 * KEYS: 1 the message, 2 due, 3 expires. ARGV: 1 id, 2 claim, 3 kind, 4 at, 5 error.
 * Reply: 1, or 0 when the message is gone or held under another claim.
 */
export const SETTLE_OUTBOX = new RedisScript(
  'outbox-settle',
  `
if redis.call('HGET', KEYS[1], 'claim') ~= ARGV[2] then return 0 end
if ARGV[3] == 'done' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  return 1
end
redis.call('HDEL', KEYS[1], 'claim')
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if ARGV[3] == 'retry' then
  redis.call('HINCRBY', KEYS[1], 'attempts', 1)
  redis.call('HSET', KEYS[1], 'lastError', ARGV[5])
end
return 1
`,
);
