/**
 * A Lua script run atomically by Redis: sent by its SHA1 (EVALSHA), and in full only when the
 * server does not know it yet (after a restart or SCRIPT FLUSH).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export class RedisScript {
  readonly sha: string;

  constructor(
    /** Named in errors. */
    readonly name: string,
    readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script; its reply is `unknown` until the caller's mapper checks it. */
  async run(
    client: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
