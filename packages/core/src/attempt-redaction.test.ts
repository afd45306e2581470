import { afterEach, describe, expect, it } from 'vitest';
import { attemptDelivery } from './attempt.js';
import { parseConfig } from './config/load.js';
import { createHooks, type AttemptEvent, type DeliverRequest } from './hooks.js';
import { MemoryStore } from './memory-store.js';
import { REDACTED } from './redaction.js';
import { acceptOne, attemptDeps } from './test-support/attempt-deps.js';
import { TOKEN_SHAPE_SAMPLES } from './testing/token-shapes.js';

const ROUTE_SECRET = 'route-secret-0123456789';
const ADMIN_TOKEN = 'admin-token-from-config-42';
const INSTALLATION_TOKEN = 'installation-token-of-this-delivery';
const ENV_NAME = 'WG_TEST_GITLAB_TOKEN';
const ENV_TOKEN = 'gitlab-token-in-the-environment';

afterEach(() => {
  delete process.env[ENV_NAME];
});

/** An attempt whose agent writes `answer` and one line comment with `comment`. */
function setup(answer: string, comment: string) {
  const config = parseConfig({
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          admin: { token: ADMIN_TOKEN },
          routes: { reviews: { secret: ROUTE_SECRET, deliver: 'sink' } },
        },
      },
    },
  });
  const hooks = createHooks();
  hooks.credentials.tap('test', (credentials) => ({
    ...credentials,
    GH_TOKEN: INSTALLATION_TOKEN,
  }));
  hooks.run.for('dry-run').tapPromise('test', async () => ({
    answer,
    lineComments: [{ path: 'src/a.ts', line: 1, body: comment }],
  }));
  const delivered: DeliverRequest[] = [];
  hooks.deliver.for('sink').tapPromise('test', async (request) => void delivered.push(request));
  const events: AttemptEvent[] = [];
  hooks.attemptFinished.tap('test', (event) => void events.push(event));
  const store = new MemoryStore();
  return { store, deps: attemptDeps(store, hooks, config), delivered, events };
}

describe('redaction before every target', () => {
  it('replaces configured secrets, credentials, environment tokens and token shapes, and counts them', async () => {
    process.env[ENV_NAME] = ENV_TOKEN;
    const shapes = Object.values(TOKEN_SHAPE_SAMPLES);
    const leaked = [ROUTE_SECRET, ADMIN_TOKEN, INSTALLATION_TOKEN, ENV_TOKEN, ...shapes];
    const { store, deps, delivered, events } = setup(
      `Here is env:\n${leaked.join('\n')}`,
      `token ${INSTALLATION_TOKEN} in a line comment`,
    );
    const id = await acceptOne(store, 'reviews');
    expect((await attemptDelivery(deps, id, new AbortController().signal)).status).toBe(
      'delivered',
    );
    // What leaves: the text the target gets (the request also carries config and credentials).
    const sent = JSON.stringify(
      delivered.map(({ answer, summary, lineComments }) => ({ answer, summary, lineComments })),
    );
    const journaled = JSON.stringify(await store.get(id));
    for (const secret of leaked) {
      expect(sent).not.toContain(secret);
      expect(journaled).not.toContain(secret);
    }
    expect(delivered[0]?.summary).toBe(`Here is env:\n${leaked.map(() => REDACTED).join('\n')}`);
    expect(delivered[0]?.lineComments[0]?.body).toBe(`token ${REDACTED} in a line comment`);
    const count = leaked.length + 1;
    expect((await store.get(id))?.safety).toEqual({ redactions: count });
    expect(events.map((event) => event.safety)).toEqual([{ redactions: count }]);
  });

  it('records nothing for an answer without secrets', async () => {
    const { store, deps, delivered, events } = setup('All good.', 'fine');
    const id = await acceptOne(store, 'reviews');
    await attemptDelivery(deps, id, new AbortController().signal);
    expect(delivered[0]?.summary).toBe('All good.');
    expect((await store.get(id))?.safety).toBeUndefined();
    expect(events[0]?.safety).toBeUndefined();
  });
});
