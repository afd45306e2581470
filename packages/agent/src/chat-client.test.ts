import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chatCompletionsUrl,
  createChatCompletion,
  serverErrorMessage,
  type ChatEndpoint,
} from './chat-client.js';
import type { ChatRequestBody } from './chat-schema.js';
import { answer, failure, startFakeOpenAI, type FakeOpenAI } from './test-support/fake-openai.js';

const body: ChatRequestBody = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const fastRetry = { retries: 3, baseDelayMs: 5, maxDelayMs: 5000 };

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await fake.close();
});

function endpoint(extra: Partial<ChatEndpoint> = {}): ChatEndpoint {
  return {
    baseUrl: fake.baseUrl,
    signal: new AbortController().signal,
    retry: fastRetry,
    ...extra,
  };
}

/** A sleep that records what it was asked to wait and returns at once. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('createChatCompletion', () => {
  it('posts the body to {base_url}/chat/completions with the key as a bearer token', async () => {
    fake.script(answer('hello'));
    const completion = await createChatCompletion(
      body,
      endpoint({ apiKey: 'sk-test', baseUrl: `${fake.baseUrl}/` }),
    );
    expect(completion.choices[0]?.message.content).toBe('hello');
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      authorization: 'Bearer sk-test',
    });
    expect(fake.requests[0]?.body).toMatchObject({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('sends no Authorization header without a key', async () => {
    fake.script(answer('hello'));
    await createChatCompletion(body, endpoint());
    expect(fake.requests[0]?.authorization).toBeUndefined();
  });

  it('retries a 500 and returns the next success', async () => {
    fake.script(failure(500, 'overloaded'), answer('second time lucky'));
    const completion = await createChatCompletion(body, endpoint());
    expect(completion.choices[0]?.message.content).toBe('second time lucky');
    expect(fake.requests).toHaveLength(2);
  });

  it('waits what Retry-After asks for on a 429, in seconds or as a date', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    fake.script(
      failure(429, 'slow down', { 'retry-after': '2' }),
      failure(429, 'slow down', { 'retry-after': date }),
      answer('ok'),
    );
    const { waits, sleep } = recordingSleep();
    await createChatCompletion(body, endpoint({ sleep }));
    expect(waits[0]).toBe(2000);
    expect(waits[1]).toBeGreaterThan(1000);
    expect(waits[1]).toBeLessThanOrEqual(3000);
  });

  it('backs off exponentially without Retry-After', async () => {
    fake.script(failure(502, 'a'), failure(503, 'b'), failure(504, 'c'), answer('ok'));
    const { waits, sleep } = recordingSleep();
    await createChatCompletion(
      body,
      endpoint({ sleep, retry: { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 } }),
    );
    expect(waits).toEqual([100, 200, 400]);
  });

  it('gives up after the retries so the worker can retry the delivery', async () => {
    fake.script(
      failure(500, 'down'),
      failure(500, 'down'),
      failure(500, 'down'),
      failure(500, 'still down'),
    );
    await expect(createChatCompletion(body, endpoint())).rejects.toThrow(
      /answered 500: still down; gave up after 4 attempts/,
    );
    expect(fake.requests).toHaveLength(4);
  });

  it('gives up at once when Retry-After is longer than a run waits', async () => {
    fake.script(failure(429, 'quota', { 'retry-after': '3600' }));
    await expect(createChatCompletion(body, endpoint())).rejects.toThrow(/retry after 3600 s/);
    expect(fake.requests).toHaveLength(1);
  });

  it('fails at once on another 4xx with the status and the server message, never the key', async () => {
    fake.script(failure(401, 'Incorrect API key provided: sk-secret-123'));
    const error = await createChatCompletion(body, endpoint({ apiKey: 'sk-secret-123' })).catch(
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(
      /answered 401: Incorrect API key provided: \*\*\*\*.*agent\.api_key_env/,
    );
    expect(String(error)).not.toContain('sk-secret-123');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries when the server cannot be reached, then says so', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { waits, sleep } = recordingSleep();
    await expect(
      createChatCompletion(body, endpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, sleep })),
    ).rejects.toThrow(
      /could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*ECONNREFUSED.*gave up after 4/,
    );
    expect(waits).toHaveLength(3);
  });

  it('stops waiting for a slow server when the run is aborted', async () => {
    fake.script({ delayMs: 10_000, body: {} });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('agent run (openai) timed out after 0.2 s')), 200);
    const started = Date.now();
    await expect(createChatCompletion(body, endpoint({ signal: abort.signal }))).rejects.toThrow(
      /timed out after 0\.2 s/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.requests).toHaveLength(1);
  });

  it('rejects an answer that is not a chat completion', async () => {
    fake.script({ body: { choices: [] } }, { body: 'not json' });
    await expect(createChatCompletion(body, endpoint())).rejects.toThrow(
      /not a chat completion \(choices: no choices/,
    );
    await expect(createChatCompletion(body, endpoint())).rejects.toThrow(/not JSON/);
  });
});

describe('helpers', () => {
  it('joins the base URL with or without a trailing slash', () => {
    expect(chatCompletionsUrl('http://h/v1')).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1//')).toBe('http://h/v1/chat/completions');
  });

  it("reads the server's error message in the usual shapes", () => {
    expect(serverErrorMessage('{"error":{"message":"bad model"}}')).toBe('bad model');
    expect(serverErrorMessage('{"error":"bad model"}')).toBe('bad model');
    expect(serverErrorMessage('{"message":"bad model"}')).toBe('bad model');
    expect(serverErrorMessage(' Bad Gateway ')).toBe('Bad Gateway');
  });
});
