import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { LIFECYCLE_EVENTS } from '../lifecycle-events.js';
import { parseConfig } from './load.js';

const KEY = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'; // 24 bytes, base64
const PATH = 'platforms.webhook.extra.outbound';

function withOutbound(outbound: unknown) {
  return { platforms: { webhook: { extra: { outbound } } } };
}

function problemsOf(outbound: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseConfig(withOutbound(outbound), env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('extra.outbound', () => {
  it('is empty unless set, and fills in all events, all routes and no answer', () => {
    expect(parseConfig({}).platforms.webhook.extra.outbound).toEqual([]);
    const [subscription] = parseConfig(
      withOutbound([{ url: 'https://ops.example.com/hooks/gateway', secret: `whsec_${KEY}` }]),
    ).platforms.webhook.extra.outbound;
    expect(subscription).toEqual({
      url: 'https://ops.example.com/hooks/gateway',
      secret: `whsec_${KEY}`,
      events: [...LIFECYCLE_EVENTS],
      include_answer: false,
    });
    expect(subscription?.routes).toBeUndefined();
  });

  it("takes the issue's example as written, the secret from the environment", () => {
    const config = parseConfig(
      withOutbound([
        {
          url: 'https://ops.example.com/hooks/gateway',
          secret: '${OUTBOUND_SECRET}',
          events: ['accepted', 'delivered', 'failed', 'dead', 'superseded', 'denied'],
          routes: ['reviews'],
          include_answer: true,
        },
      ]),
      { OUTBOUND_SECRET: `whsec_${KEY}` },
    );
    expect(config.platforms.webhook.extra.outbound[0]).toMatchObject({
      routes: ['reviews'],
      include_answer: true,
      events: ['accepted', 'delivered', 'failed', 'dead', 'superseded', 'denied'],
    });
  });

  it('keeps a bare base64 secret as whsec_ and that base64 (keyed as its decoded bytes)', () => {
    const [subscription] = parseConfig(
      withOutbound([{ url: 'https://ops.example.com/', secret: KEY }]),
    ).platforms.webhook.extra.outbound;
    expect(subscription?.secret).toBe(`whsec_${KEY}`);
  });

  it('allows http only on loopback hosts', () => {
    for (const url of [
      'http://127.0.0.1:9000/events',
      'http://[::1]:9000/events',
      'http://localhost/events',
    ]) {
      expect(problemsOf([{ url, secret: KEY }]), url).toEqual([]);
    }
    expect(problemsOf([{ url: 'http://ops.example.com/events', secret: KEY }])).toEqual([
      `${PATH}[0].url: expected https:// (plain http is only for loopback hosts, not ops.example.com)`,
    ]);
    expect(problemsOf([{ url: 'ftp://ops.example.com/', secret: KEY }])).toEqual([
      `${PATH}[0].url: expected an https:// URL`,
    ]);
    expect(problemsOf([{ url: 'https://user:pw@ops.example.com/', secret: KEY }])).toEqual([
      `${PATH}[0].url: put no user or password in the URL: the request is signed with the secret`,
    ]);
  });

  it('refuses a secret that is neither whsec_ nor base64, or of the wrong size, by its key path', () => {
    const [notBase64] = problemsOf([{ url: 'https://a.example.com/', secret: 'my secret!' }]);
    expect(notBase64).toMatch(
      new RegExp(
        `^${PATH.replace(/\./g, '\\.')}\\[0\\]\\.secret: expected a Standard Webhooks secret`,
      ),
    );
    const [short] = problemsOf([{ url: 'https://a.example.com/', secret: 'whsec_dGVzdA==' }]);
    expect(short).toContain(`${PATH}[0].secret: the secret's key is 4 bytes`);
    expect(problemsOf([{ url: 'https://a.example.com/', secret: 'whsec_' }])).toHaveLength(1);
  });

  it('refuses unknown events, empty lists, unknown keys and a URL listed twice', () => {
    expect(
      problemsOf([
        { url: 'https://a.example.com/', secret: KEY, events: ['delivered', 'running'] },
        { url: 'https://b.example.com/', secret: KEY, events: [], routes: [] },
        { url: 'https://a.example.com/', secret: KEY, include_answers: true },
      ]),
    ).toEqual([
      `${PATH}[0].events[1]: Invalid option: expected one of "accepted"|"delivered"|"failed"|"dead"|"superseded"|"denied"|"over_budget"|"silent"|"skipped"`,
      `${PATH}[1].events: list at least one event, or leave events out for all`,
      `${PATH}[1].routes: list at least one route, or leave routes out for all`,
      `${PATH}[2].include_answers: unknown key`,
    ]);
    expect(
      problemsOf([
        { url: 'https://a.example.com/', secret: KEY },
        { url: 'https://a.example.com/', secret: KEY },
      ]),
    ).toEqual([
      `${PATH}[1].url: https://a.example.com/ is listed twice; merge its events and routes into one entry`,
    ]);
  });
});
