/**
 * The pauses of new attempts (`Store.pauses`): one hash, `<prefix>:pauses`, field `all` for
 * every route or `route:<name>` for one, value the pause as JSON. Every worker on the store
 * reads it; a pause holds until it is lifted, across restarts.
 */
import type { Pause } from '@webhook-gateway/core';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { RedisScript } from './script.js';

const pauseSchema = z.object({
  route: z.string().min(1).nullable(),
  reason: z.string().nullable(),
  since: z.number(),
});

/** The hash field of a route's pause (null: every route). */
function fieldOf(route: string | null): string {
  return route === null ? 'all' : `route:${route}`;
}

/** Reads one stored pause, naming the key and field when it is damaged. */
function parsePause(key: string, field: string, text: string): Pause {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = pauseSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `the pause at Redis key "${key}" field "${field}" is damaged: ${parsed.error.issues[0]?.message ?? 'not JSON'}`,
    );
  }
  return parsed.data;
}

/**
 * KEYS: 1 the pauses hash. ARGV: 1 field, 2 the new pause as JSON.
 * Reply: {1, the new JSON} when added, {0, the JSON in force} when the route was paused already.
 */
const PAUSE = new RedisScript(
  'pause-route',
  `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  return {1, ARGV[2]}
end
return {0, redis.call('HGET', KEYS[1], ARGV[1])}
`,
);

const pauseReplySchema = z.tuple([z.union([z.literal(0), z.literal(1)]), z.string()]);

/** The pauses in force, oldest first. */
export async function readPauses(client: Redis, key: string): Promise<Pause[]> {
  const fields = await client.hgetall(key);
  return Object.entries(fields)
    .map(([field, text]) => parsePause(key, field, text))
    .sort((a, b) => a.since - b.since);
}

/** Pauses `route` unless it is paused already; the answer is the pause in force. */
export async function addPause(
  client: Redis,
  key: string,
  pause: Pause,
): Promise<{ pause: Pause; added: boolean }> {
  const field = fieldOf(pause.route);
  const reply = pauseReplySchema.safeParse(
    await PAUSE.run(client, [key], [field, JSON.stringify(pause)]),
  );
  if (!reply.success) throw new Error(`the pause script answered unexpectedly for ${field}`);
  const [added, text] = reply.data;
  return { pause: parsePause(key, field, text), added: added === 1 };
}

/** Lifts the pause of `route`; false when there was none. */
export async function removePause(
  client: Redis,
  key: string,
  route: string | null,
): Promise<boolean> {
  return (await client.hdel(key, fieldOf(route))) > 0;
}
