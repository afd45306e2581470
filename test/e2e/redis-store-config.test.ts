/** Choosing the Redis store in config: the errors an operator sees, never with the password. */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome, runCli, writeConfig } from '../support/gateway.js';

afterAll(() => cleanupHomes());

const webhook = { extra: { secret: 'config-secret-0123456789', routes: { reviews: {} } } };

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

describe('store.kind redis', () => {
  it('refuses to start without store.url, saying what to set', async () => {
    const home = makeHome();
    writeConfig(home, { store: { kind: 'redis' }, platforms: { webhook } });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'store.kind "redis" needs the server\'s address: set store.url',
    );
  });

  it('names an unreachable server with its password masked', async () => {
    const home = makeHome();
    const port = await closedPort();
    writeConfig(home, {
      store: { kind: 'redis', url: `redis://:hunter2-secret@127.0.0.1:${port}/0` },
      platforms: { webhook },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `cannot reach Redis at redis://:****@127.0.0.1:${port}/0 (connect ECONNREFUSED`,
    );
    expect(result.stderr + result.stdout).not.toContain('hunter2-secret');
  });

  it('rejects a URL that is not redis://, naming store.url', async () => {
    const home = makeHome();
    writeConfig(home, {
      store: { kind: 'redis', url: 'http://:hunter2-secret@127.0.0.1:6379' },
      platforms: { webhook },
    });
    const result = await runCli(['deliveries', 'list', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('store.url must start with redis:// or rediss://');
    expect(result.stderr).not.toContain('hunter2-secret');
  });
});
