import { afterEach, describe, expect, it } from 'vitest';
import { httpTargetOptionsSchema } from './options.js';
import { callRest, callTokenRest } from './rest-call.js';
import { startFakeService, type FakeService } from './testing/fake-service.js';

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const options = (overrides: Record<string, unknown> = {}) =>
  httpTargetOptionsSchema.parse({ max_retry_after_s: 0.05, ...overrides });

describe('callRest', () => {
  it('sends PATCH with its body and gives back a 404 for the caller to read', async () => {
    fake = await startFakeService(() => ({ status: 404, body: { message: 'not found' } }));
    const answer = await callRest(
      { method: 'PATCH', url: `${fake.url}/x/1`, headers: {}, body: '{"a":1}' },
      { service: 'Gitea', options: options(), signal: new AbortController().signal },
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'not found' });
    expect(fake.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PATCH', '/x/1', '{"a":1}'],
    ]);
  });

  it('waits out a 429 and calls again, telling about the wait', async () => {
    fake = await startFakeService((_, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 201 },
    );
    const waits: number[] = [];
    const answer = await callRest(
      { method: 'DELETE', url: `${fake.url}/x/1`, headers: {} },
      {
        service: 'Gitea',
        options: options(),
        signal: new AbortController().signal,
        onRateLimited: (ms) => waits.push(ms),
      },
    );
    expect(answer.status).toBe(201);
    expect(waits).toEqual([3000]);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up once the retries are spent', async () => {
    fake = await startFakeService(() => ({ status: 429 }));
    await expect(
      callRest(
        { method: 'GET', url: `${fake.url}/x`, headers: {} },
        {
          service: 'Gitea',
          options: options({ rate_limit_retries: 1 }),
          signal: new AbortController().signal,
        },
      ),
    ).rejects.toThrow('Gitea is still rate limiting after 1 retries');
    expect(fake.requests).toHaveLength(2);
  });
});

describe('callTokenRest', () => {
  const context = (log: string[]) => ({
    service: 'Gitea',
    target: 'gitea_review',
    authorization: 'token tok-secret-1',
    token: 'tok-secret-1',
    options: options(),
    signal: new AbortController().signal,
    log: { warn: (_: unknown, message: string) => void log.push(message) },
  });

  it('sends JSON with the token, logs each wait after a 429, and hands back the answer', async () => {
    fake = await startFakeService((_, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 422 },
    );
    const log: string[] = [];
    const answer = await callTokenRest(context(log), 'POST', `${fake.url}/x`, { a: 1 });
    expect(answer.status).toBe(422);
    expect(fake.requests[1]?.headers.authorization).toBe('token tok-secret-1');
    expect(fake.requests[1]?.headers['content-type']).toBe('application/json');
    expect(fake.requests[1]?.body).toBe('{"a":1}');
    expect(fake.requests[1]?.headers.accept).toBe('application/json');
    expect(log).toEqual(['Gitea is rate limiting; waiting before calling again']);
  });

  it('asks for the Accept header it is given', async () => {
    fake = await startFakeService(() => ({ status: 200, body: 'raw text' }));
    const answer = await callTokenRest({ ...context([]), accept: 'text/plain' }, 'GET', fake.url);
    expect(fake.requests[0]?.headers.accept).toBe('text/plain');
    expect(answer.text).toBe('raw text');
  });

  it('throws naming the target, never the token, when no answer came', async () => {
    await expect(
      callTokenRest(context([]), 'GET', 'http://127.0.0.1:1/tok-secret-1/x'),
    ).rejects.toThrow(/^gitea_review: (?!.*tok-secret-1)/);
  });
});
