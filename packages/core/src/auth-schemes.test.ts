import { describe, expect, it } from 'vitest';
import { authenticateRequest } from './auth-schemes.js';
import { createHooks, type AuthVerdict } from './hooks.js';

/** Hooks with one scheme per header name: its header present and equal to `good` passes. */
function hooksFor(schemes: Record<string, string>) {
  const hooks = createHooks();
  for (const [scheme, header] of Object.entries(schemes)) {
    hooks.authenticate.for(scheme).tapPromise('test', async (request) => {
      const value = request.headers[header];
      if (value === undefined) return undefined;
      const verdict: AuthVerdict =
        value === 'good' ? { ok: true, event: scheme } : { ok: false, reason: `${header} wrong` };
      return verdict;
    });
  }
  return hooks;
}

const hooks = hooksFor({ sig: 'x-sig', other: 'x-other', bearer: 'authorization' });
const ask = (headers: Record<string, string>, schemes: string[], alsoRefusing: string[] = []) =>
  authenticateRequest(
    hooks,
    schemes,
    { route: 'r', headers, rawBody: Buffer.from('{}'), secrets: ['s'] },
    alsoRefusing,
  );

describe('authenticateRequest', () => {
  it('takes the first accepting scheme of the route', async () => {
    expect(await ask({ authorization: 'good' }, ['sig', 'bearer'])).toMatchObject({
      ok: true,
      scheme: 'bearer',
    });
    expect(await ask({}, ['sig', 'bearer'])).toBeUndefined();
  });

  it('refuses a failing signature even when a scheme asked earlier accepted another credential', async () => {
    const verdict = await ask({ authorization: 'good', 'x-sig': 'bad' }, ['bearer', 'sig']);
    expect(verdict).toEqual({ ok: false, scheme: 'sig', reason: 'x-sig wrong' });
  });

  it('lets a wrong bare credential refuse only when no scheme accepted', async () => {
    const credentialHooks = createHooks();
    credentialHooks.authenticate
      .for('sig')
      .tapPromise('test', async (request) =>
        request.headers['x-sig'] === undefined ? undefined : { ok: true },
      );
    credentialHooks.authenticate
      .for('bearer')
      .tapPromise('test', async (request) =>
        request.headers.authorization === undefined
          ? undefined
          : { ok: false, reason: 'no match', credentialOnly: true },
      );
    const request = (headers: Record<string, string>) => ({
      route: 'r',
      headers,
      rawBody: Buffer.from('{}'),
      secrets: ['s'],
    });
    const both = await authenticateRequest(
      credentialHooks,
      ['bearer', 'sig'],
      request({ authorization: 'proxy-token', 'x-sig': 'good' }),
    );
    expect(both).toMatchObject({ ok: true, scheme: 'sig' });
    const alone = await authenticateRequest(
      credentialHooks,
      ['bearer', 'sig'],
      request({ authorization: 'x' }),
    );
    expect(alone).toMatchObject({ ok: false, scheme: 'bearer' });
  });

  it('lets a loaded scheme the route did not list refuse, never accept', async () => {
    const all = ['sig', 'other', 'bearer'];
    expect(await ask({ authorization: 'good', 'x-other': 'bad' }, ['bearer'], all)).toMatchObject({
      ok: false,
      scheme: 'other',
    });
    expect(await ask({ 'x-other': 'good' }, ['bearer'], all)).toBeUndefined();
    expect(await ask({ authorization: 'good', 'x-other': 'good' }, ['bearer'], all)).toMatchObject({
      ok: true,
      scheme: 'bearer',
    });
  });
});
