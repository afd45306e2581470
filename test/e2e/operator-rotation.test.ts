/**
 * Secret rotation (issue 6, item 3) through the running gateway: while a route's `secret` is a
 * list, every listed secret verifies, for the forge's signature and the altforge's token alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  writeConfig,
  type StartedGateway,
} from '../support/gateway.js';
import { fixture, sendAltforge, sendForge } from '../support/requests.js';

const NEW = 'rotation-new-secret-2222222222';
const OLD = 'rotation-old-secret-1111111111';
const OTHER = 'not-a-listed-secret-3333333333';
const GLOBAL_NEW = 'global-new-secret-4444444444';
const GLOBAL_OLD = 'global-old-secret-5555555555';
const pullRequest = fixture('forge/pull_request_opened.json');
const mergeRequest = fixture('altforge/merge_request_open.json');

function config(routeSecrets: string[]) {
  return {
    platforms: {
      webhook: {
        extra: {
          secret: [GLOBAL_NEW, GLOBAL_OLD],
          rate_limit: 1000,
          routes: { rotating: { secret: routeSecrets }, inherits: {} },
        },
      },
    },
  };
}

let gateway: StartedGateway;

beforeAll(async () => {
  gateway = await startGateway({ home: makeHome(), config: config([NEW, OLD]) });
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

const forge = (route: string, secret: string) =>
  sendForge(gateway.url, route, { body: pullRequest, secret, event: 'pull_request' });
const altforge = (route: string, token: string) =>
  sendAltforge(gateway.url, route, { body: mergeRequest, token });

describe('a route secret listed while rotating', () => {
  it.each([
    ['the new', NEW],
    ['the old', OLD],
  ])('verifies a forge signature made with %s secret', async (_which, secret) => {
    expect((await forge('rotating', secret)).status).toBe(202);
  });

  it.each([
    ['the new', NEW],
    ['the old', OLD],
  ])('verifies an altforge token equal to %s secret', async (_which, secret) => {
    expect((await altforge('rotating', secret)).status).toBe(202);
  });

  it('still refuses a secret that is not listed, in both schemes', async () => {
    expect((await forge('rotating', OTHER)).status).toBe(401);
    expect((await altforge('rotating', OTHER)).status).toBe(401);
  });

  it('does not fall back to the global list when the route has its own', async () => {
    expect((await forge('rotating', GLOBAL_OLD)).status).toBe(401);
  });
});

describe('a global secret listed while rotating', () => {
  it('verifies both global secrets on a route without its own, in both schemes', async () => {
    for (const secret of [GLOBAL_NEW, GLOBAL_OLD]) {
      expect((await forge('inherits', secret)).status).toBe(202);
      expect((await altforge('inherits', secret)).status).toBe(202);
    }
    expect((await forge('inherits', NEW)).status).toBe(401);
  });
});

describe('finishing a rotation', () => {
  it('refuses the old secret once the list is reloaded without it', async () => {
    writeConfig(gateway.home, config([NEW]));
    await waitFor(
      () =>
        gateway.logLines().find((l) => l.msg === 'config reloaded' && l.trigger === 'file change'),
      'the reload',
    );
    expect((await forge('rotating', OLD)).status).toBe(401);
    expect((await altforge('rotating', OLD)).status).toBe(401);
    expect((await forge('rotating', NEW)).status).toBe(202);
    expect((await altforge('rotating', NEW)).status).toBe(202);
  });
});
