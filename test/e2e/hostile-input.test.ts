/**
 * Hostile input against one running gateway (issue 9): bodies that are not JSON objects, invalid
 * UTF-8, deep nesting, oversized and endless uploads, header floods, signature forms, odd route
 * names, unknown methods, a request flood and clients that never finish. Each gets its
 * documented answer (`docs/contract.md#the-order-of-checks`), the process stays up, and its
 * memory returns near its baseline.
 *
 * Slow clients are started first and checked last: Node closes them on its own connection check
 * (every 30 s by default), so they run alongside everything else instead of adding to the time.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import {
  chunkedFlood,
  finishedDeliveryIds,
  hasJsonAnswer,
  inParallel,
  jsonBodyOf,
  rawExchange,
  rawRequest,
  rssKiB,
  statusOf,
  type RawExchange,
} from '../support/hostile-http.js';
import { newDeliveryId, post, sendForge, signForge, type Sent } from '../support/requests.js';

const SECRET = 'hostile-secret-0123456789';
const MAX_BODY_BYTES = 262_144;
const RATE_LIMIT = 1_500;
/** `request_timeout_s`; the gateway checks connections for it every second. */
const REQUEST_TIMEOUT_S = 2;
const NODE_CONNECTION_CHECK_MS = 1_000;
const SLOW_CLIENT_WAIT_MS = REQUEST_TIMEOUT_S * 1000 + NODE_CONNECTION_CHECK_MS + 10_000;

let gateway: StartedGateway;
let logFile: string;
let slowClients: Promise<Record<string, RawExchange>>;

function signedHeaders(body: Buffer | string, extra: Record<string, string> = {}) {
  return {
    'Content-Type': 'application/json',
    'X-Forge-Event': 'push',
    'X-Forge-Delivery': newDeliveryId(),
    'X-Forge-Signature-256': signForge(body, SECRET),
    ...extra,
  };
}

function sendSigned(route: string, body: Buffer | string, event = 'push'): Promise<Sent> {
  return sendForge(gateway.url, route, { body, secret: SECRET, event });
}

async function expectHealthy(): Promise<void> {
  expect(gateway.child.exitCode).toBeNull();
  expect(gateway.child.signalCode).toBeNull();
  const response = await fetch(`${gateway.url}/health`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', platform: 'webhook', paused: [] });
}

function waitUntilFinished(deliveryIds: readonly string[], timeoutMs = 20_000): Promise<true> {
  return waitFor(
    () => {
      const finished = finishedDeliveryIds(logFile);
      return deliveryIds.every((id) => finished.has(id)) ? true : undefined;
    },
    `${deliveryIds.length} deliveries to be processed`,
    { timeoutMs },
  );
}

/** Starts clients that never finish; each resolves when the server closes it or the wait ends. */
function startSlowClients(): Promise<Record<string, RawExchange>> {
  const wait = { waitMs: SLOW_CLIENT_WAIT_MS };
  const clients = {
    // Connects and says nothing.
    silent: rawExchange(gateway.port, '', wait),
    // Sends a request line and one header, then a header byte now and then, never the blank line.
    headers: rawExchange(gateway.port, 'POST /webhooks/anything HTTP/1.1\r\nHost: 127.0.0.1\r\n', {
      ...wait,
      trickle: { data: 'X', everyMs: 1_000 },
    }),
    // Announces 1,000 bytes and sends them one at a time, far too slowly.
    body: rawExchange(
      gateway.port,
      rawRequest(
        'POST',
        '/webhooks/anything',
        signedHeaders('{}', { 'Content-Length': '1000' }),
        '{"a":',
      ),
      { ...wait, trickle: { data: ' ', everyMs: 1_000 } },
    ),
  };
  return Promise.all(
    Object.entries(clients).map(async ([name, exchange]) => [name, await exchange] as const),
  ).then((entries) => Object.fromEntries(entries));
}

beforeAll(async () => {
  const home = makeHome();
  logFile = path.join(home, 'logs', 'gateway.log');
  gateway = await startGateway({
    home,
    config: {
      platforms: {
        webhook: {
          extra: {
            secret: SECRET,
            max_body_bytes: MAX_BODY_BYTES,
            request_timeout_s: REQUEST_TIMEOUT_S,
            rate_limit: RATE_LIMIT,
            routes: {
              anything: {},
              templated: { prompt: 'deep: {a} first: {a.0} number: {number}' },
              'team.reviews': { events: ['pull_request'] },
              flood: { prompt: 'PR #{number}' },
            },
          },
        },
      },
    },
  });
  slowClients = startSlowClients();
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

describe('bodies that are not a JSON object', () => {
  const malformed = [
    '{"a":',
    '{"a" 1}',
    "{'a':1}",
    '{"a":1}garbage',
    '{"a":1,}',
    '{"a":01}',
    'NaN',
    '\u0000',
    '{"a":"\u0001"}',
    '\ufeff\ufeff{}',
  ];
  const notObjects = ['[]', '[{}]', '[1,2]', '"text"', '42', '1e309', 'true', 'null'];
  const empty = ['', ' ', '\r\n\t '];

  it('answers 400 with a JSON error to signed malformed JSON', async () => {
    for (const body of malformed) {
      const sent = await sendSigned('anything', body);
      expect(sent.status, JSON.stringify(body)).toBe(400);
      expect(sent.body.error, JSON.stringify(body)).toMatch(/JSON/);
    }
  });

  it('answers 400 to signed JSON arrays and scalars, naming what it got', async () => {
    for (const body of notObjects) {
      const sent = await sendSigned('anything', body);
      expect(sent.status, body).toBe(400);
      expect(sent.body.error, body).toMatch(/must be a JSON object/);
    }
  });

  it('answers 400 to a signed empty or blank body', async () => {
    for (const body of empty) {
      const sent = await sendSigned('anything', body);
      expect(sent.status, JSON.stringify(body)).toBe(400);
      expect(sent.body.error).toMatch(/Empty body/);
    }
  });

  it('answers 401 to all of them unsigned: the signature is checked before the body is parsed', async () => {
    for (const body of [...malformed, ...notObjects, ...empty]) {
      const sent = await post(`${gateway.url}/webhooks/anything`, body, {
        'Content-Type': 'application/json',
        'X-Forge-Event': 'push',
      });
      expect(sent.status, JSON.stringify(body)).toBe(401);
      expect(sent.body).toEqual({ error: 'Invalid signature' });
    }
  });

  it('answers 400 to a form body whose payload is missing or not an object', async () => {
    for (const body of ['payload=%5B1%5D', 'other=%7B%7D', 'payload=%ZZ', 'payload=', '']) {
      const sent = await post(
        `${gateway.url}/webhooks/anything`,
        body,
        signedHeaders(body, { 'Content-Type': 'application/x-www-form-urlencoded' }),
      );
      expect(sent.status, body).toBe(400);
      expect(typeof sent.body.error).toBe('string');
    }
  });

  it('answers 415 to other content types, signed', async () => {
    for (const type of [
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/xml',
      'json',
    ]) {
      const sent = await post(
        `${gateway.url}/webhooks/anything`,
        '{}',
        signedHeaders('{}', { 'Content-Type': type }),
      );
      expect(sent.status, type).toBe(415);
      expect(sent.body.error).toMatch(/Unsupported content type/);
    }
  });
});

describe('invalid UTF-8', () => {
  const body = Buffer.concat([
    Buffer.from('{"number":1,"title":"'),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
    Buffer.from('"}'),
  ]);

  it('accepts it signed over the exact bytes (decoded leniently) and processes it', async () => {
    const deliveryId = newDeliveryId();
    const sent = await sendForge(gateway.url, 'templated', {
      body,
      secret: SECRET,
      event: 'push',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    await waitUntilFinished([deliveryId]);
  });

  it('answers 401 to it unsigned or signed with another secret', async () => {
    const unsigned = await post(`${gateway.url}/webhooks/anything`, body, {
      'Content-Type': 'application/json',
    });
    expect(unsigned.status).toBe(401);
    const wrong = await sendForge(gateway.url, 'anything', {
      body,
      secret: 'other',
      event: 'push',
    });
    expect(wrong.status).toBe(401);
  });
});

describe('deeply nested JSON', () => {
  const nested = (depth: number) => `{"a":${'['.repeat(depth)}${']'.repeat(depth)},"number":1}`;

  it('accepts 1,000 levels and renders them in the template and the default prompt', async () => {
    const ids: string[] = [];
    for (const route of ['templated', 'anything']) {
      const deliveryId = newDeliveryId();
      const body = nested(1_000);
      const sent = await sendForge(gateway.url, route, {
        body,
        secret: SECRET,
        event: 'push',
        deliveryId,
      });
      expect(sent.status, route).toBe(202);
      ids.push(deliveryId);
    }
    await waitUntilFinished(ids);
    await expectHealthy();
  });

  it('stays up after 100,000 levels, signed, and after whatever processing follows', async () => {
    const deliveryId = newDeliveryId();
    const body = nested(100_000);
    const sent = await sendForge(gateway.url, 'templated', {
      body,
      secret: SECRET,
      event: 'push',
      deliveryId,
    });
    // Whatever the answer, it is one of the JSON answers (see the known bug below).
    expect(Object.keys(sent.body).length, sent.text).toBeGreaterThan(0);
    if (sent.status === 202) await waitUntilFinished([deliveryId]);
    await expectHealthy();
  });

  // Nesting past MAX_JSON_DEPTH is refused before parsing: deeper payloads would overflow the
  // stack when the journal serialises them.
  it('answers 100,000 levels with 400, never a 5xx', async () => {
    const sent = await sendSigned('templated', nested(100_000));
    expect(sent.status).toBe(400);
  });
});

describe('oversized and lying bodies', () => {
  it('answers 413 to a chunked body without Content-Length, without reading it all', async () => {
    const total = 64 * 1024 * 1024;
    const result = await chunkedFlood(gateway.port, '/webhooks/anything', signedHeaders(''), total);
    expect(statusOf(result.response)).toBe(413);
    expect(jsonBodyOf(result.response)).toEqual({ error: 'Payload too large' });
    expect(result.bytesSent).toBeLessThan(total);
  });

  it('answers 413 from a huge Content-Length before any body byte arrives', async () => {
    const request = rawRequest('POST', '/webhooks/anything', {
      ...signedHeaders('{}'),
      'Content-Length': '1000000000000',
    });
    const result = await rawExchange(gateway.port, request, { doneWhen: hasJsonAnswer });
    expect(statusOf(result.response)).toBe(413);
    expect(jsonBodyOf(result.response)).toEqual({ error: 'Payload too large' });
  });

  it('drops a body shorter than its Content-Length without answering 2xx or 5xx', async () => {
    // Half-closes after 5 of the 100 announced bytes.
    const request = rawRequest(
      'POST',
      '/webhooks/anything',
      signedHeaders('{}', { 'Content-Length': '100' }),
      '{"a":',
    );
    const result = await rawExchange(gateway.port, request, { halfClose: true });
    const status = statusOf(result.response);
    if (status !== undefined) expect(status).toBeGreaterThanOrEqual(400);
    if (status !== undefined) expect(status).toBeLessThan(500);
    await expectHealthy();
  });

  it('answers 400 to Content-Length together with Transfer-Encoding (request smuggling)', async () => {
    const request = rawRequest(
      'POST',
      '/webhooks/anything',
      { ...signedHeaders('{}'), 'Transfer-Encoding': 'chunked' },
      '2\r\n{}\r\n0\r\n\r\n',
    );
    const result = await rawExchange(gateway.port, request);
    expect(statusOf(result.response)).toBe(400);
    await expectHealthy();
  });
});

describe('header floods', () => {
  it("answers 431 to 5,000 headers (Node's header limits) and keeps serving", async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 5_000; i++) many[`X-Flood-${i}`] = 'v';
    const result = await rawExchange(
      gateway.port,
      rawRequest('POST', '/webhooks/anything', many, '{}'),
    );
    expect(statusOf(result.response)).toBe(431);
    expect(result.closedByServer).toBe(true);
    await expectHealthy();
  });

  it('answers 431 to one 64 KiB header', async () => {
    const result = await rawExchange(
      gateway.port,
      rawRequest('POST', '/webhooks/anything', { 'X-Big': 'b'.repeat(65_536) }, '{}'),
    );
    expect(statusOf(result.response)).toBe(431);
    await expectHealthy();
  });
});

describe('signature forms', () => {
  const body = '{"number":3}';
  const hex = signForge(body, SECRET).slice('sha256='.length);

  it('takes the signature header name in any case, and its real-service alias', async () => {
    for (const name of [
      'x-forge-signature-256',
      'X-FORGE-SIGNATURE-256',
      'x-Forge-SIGNATURE-256',
      'X-Hub-Signature-256',
      'x-hub-signature-256',
    ]) {
      const sent = await post(`${gateway.url}/webhooks/anything`, body, {
        'content-type': 'application/json',
        'x-forge-event': 'push',
        'X-FORGE-DELIVERY': newDeliveryId(),
        [name]: `sha256=${hex}`,
      });
      expect(sent.status, name).toBe(202);
    }
  });

  it('answers 401 to every malformed or wrong signature value', async () => {
    const wrong = [
      `sha256=${hex.toUpperCase()}`,
      `SHA256=${hex}`,
      `Sha256=${hex}`,
      hex,
      `sha1=${hex.slice(0, 40)}`,
      `sha512=${hex}${hex}`,
      `sha256=${hex.slice(0, 63)}`,
      `sha256=${hex}0`,
      `sha256=${hex}${hex}`,
      `sha256=${hex.slice(0, 1)}`,
      `sha256=${'0'.repeat(10_000)}`,
      'sha256=',
      'sha256',
      `sha256=${hex.slice(0, 62)}zz`,
      `sha256= ${hex}`,
      `sha256=${hex};sha256=${hex}`,
      signForge(body, 'another-secret'),
      signForge(`${body} `, SECRET),
    ];
    for (const signature of wrong) {
      const sent = await post(`${gateway.url}/webhooks/anything`, body, {
        'Content-Type': 'application/json',
        'X-Forge-Signature-256': signature,
      });
      expect(sent.status, signature.slice(0, 80)).toBe(401);
      expect(sent.body).toEqual({ error: 'Invalid signature' });
    }
  });

  it('answers 401 when the right signature is sent twice (the values are joined)', async () => {
    const headers = new Headers({ 'Content-Type': 'application/json' });
    headers.append('X-Forge-Signature-256', `sha256=${hex}`);
    headers.append('X-Forge-Signature-256', `sha256=${hex}`);
    const response = await fetch(`${gateway.url}/webhooks/anything`, {
      method: 'POST',
      body,
      headers,
    });
    expect(response.status).toBe(401);
  });

  it('answers 401 to the legacy sha1 header alone', async () => {
    const sent = await post(`${gateway.url}/webhooks/anything`, body, {
      'Content-Type': 'application/json',
      'X-Hub-Signature': `sha1=${hex.slice(0, 40)}`,
    });
    expect(sent.status).toBe(401);
  });

  it('takes the altforge token header in any case and refuses wrong tokens of any length', async () => {
    const ok = await post(`${gateway.url}/webhooks/anything`, body, {
      'Content-Type': 'application/json',
      'X-GITLAB-TOKEN': SECRET,
      'Idempotency-Key': newDeliveryId(),
    });
    expect(ok.status).toBe(202);
    for (const token of [
      '',
      'x',
      SECRET.slice(0, -1),
      `${SECRET}x`,
      SECRET.toUpperCase(),
      'y'.repeat(8_000),
    ]) {
      const sent = await post(`${gateway.url}/webhooks/anything`, body, {
        'Content-Type': 'application/json',
        'x-altforge-token': token,
      });
      expect(sent.status, token.slice(0, 40)).toBe(401);
    }
  });
});

describe('route names', () => {
  it('matches a dotted route name literally', async () => {
    const sent = await sendSigned('team.reviews', '{"number":4}', 'pull_request');
    expect(sent.status).toBe(202);
    for (const name of [
      'teamXreviews',
      'team.reviews.json',
      'team',
      'reviews',
      'TEAM.REVIEWS',
      'team.reviews.',
    ]) {
      const miss = await sendSigned(name, '{"number":4}', 'pull_request');
      expect(miss.status, name).toBe(404);
      expect(miss.body).toEqual({ error: 'Unknown route' });
    }
  });

  it('answers 404 Unknown route to encoded, unicode, invalid and prototype-like names', async () => {
    for (const name of [
      'team%2Ereviews%2Ejson',
      'anything%2F..',
      '..%2Fanything',
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2fhealth',
      'anything%00',
      'anything%20',
      '%E2%9C%93',
      encodeURIComponent('✓ überall'),
      '%',
      '%zz',
      '%E0%A4%A',
      '%C0%AE%C0%AE',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'r'.repeat(8_000),
    ]) {
      const sent = await sendSigned(name, '{}');
      expect(sent.status, name.slice(0, 40)).toBe(404);
      expect(sent.body, name.slice(0, 40)).toEqual({ error: 'Unknown route' });
    }
  });

  it('never resolves `..` in a path: it is a 404, not another endpoint', async () => {
    // fetch would normalize these paths, so they go out as written on a raw socket.
    for (const target of [
      '/webhooks/..',
      '/webhooks/%2e%2e',
      '/webhooks/.%2E',
      '/webhooks/../health',
      '/webhooks/anything/../../health',
      '/webhooks/./anything',
      '/webhooks//anything',
      '/webhooks/..\\health',
    ]) {
      const result = await rawExchange(
        gateway.port,
        rawRequest('POST', target, signedHeaders('{}'), '{}'),
        { doneWhen: hasJsonAnswer },
      );
      expect(statusOf(result.response), target).toBe(404);
      expect(jsonBodyOf(result.response), target).toHaveProperty('error');
    }
  });
});

describe('methods', () => {
  it('answers 405 with Allow: POST and a JSON body to other known methods on a webhook path', async () => {
    for (const method of [
      'GET',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'PROPFIND',
      'PURGE',
      'TRACE',
      'LINK',
    ]) {
      const result = await rawExchange(
        gateway.port,
        rawRequest(method, '/webhooks/anything', {}, ''),
        { doneWhen: hasJsonAnswer },
      );
      expect(statusOf(result.response), method).toBe(405);
      expect(result.response).toMatch(/\r\nAllow: POST\r\n/i);
      expect(jsonBodyOf(result.response), method).toEqual({ error: 'Method not allowed' });
    }
  });

  it('answers 405 without a body to HEAD', async () => {
    const response = await fetch(`${gateway.url}/webhooks/anything`, { method: 'HEAD' });
    expect(response.status).toBe(405);
  });

  it('answers other methods on /health without taking the process down', async () => {
    for (const method of ['POST', 'DELETE', 'PROPFIND', 'PURGE']) {
      const result = await rawExchange(gateway.port, rawRequest(method, '/health', {}, ''), {
        doneWhen: (response) => response.includes('\r\n\r\n'),
      });
      expect(statusOf(result.response), method).toBeGreaterThanOrEqual(400);
    }
    await expectHealthy();
  });

  // @koa/router's allowedMethods() answers these in plain text (501 for PROPFIND); the receiver
  // turns them into JSON 405s.
  it('answers other methods on /health with a JSON 405, never a 5xx', async () => {
    for (const method of ['POST', 'PROPFIND']) {
      const result = await rawExchange(gateway.port, rawRequest(method, '/health', {}, ''), {
        doneWhen: hasJsonAnswer,
      });
      expect(statusOf(result.response), method).toBe(405);
      expect(jsonBodyOf(result.response), method).toHaveProperty('error');
    }
  });

  it("answers 400 to a method Node's parser does not know, and keeps serving", async () => {
    for (const method of ['FOO', 'post', 'P0ST']) {
      const result = await rawExchange(
        gateway.port,
        rawRequest(method, '/webhooks/anything', {}, '{}'),
      );
      expect(statusOf(result.response), method).toBe(400);
    }
    await expectHealthy();
  });
});

describe('volume', () => {
  const floodBody = (i: number) => `{"number":${i},"pull_request":{"title":"flood ${i}"}}`;

  async function floodRound(signed: number): Promise<{ statuses: number[]; accepted: string[] }> {
    const accepted: string[] = [];
    const signedStatuses = await inParallel(signed, 16, async (i) => {
      const deliveryId = newDeliveryId();
      const sent = await sendForge(gateway.url, 'flood', {
        body: floodBody(i),
        secret: SECRET,
        event: 'push',
        deliveryId,
      });
      if (sent.status === 202) accepted.push(deliveryId);
      if (sent.status === 429) {
        expect(sent.body).toEqual({ error: 'Rate limit exceeded' });
        expect(Number(sent.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      return sent.status;
    });
    const bad = await inParallel(Math.ceil(signed / 2), 16, async (i) => {
      const kind = i % 3;
      if (kind === 0) {
        return (
          await post(`${gateway.url}/webhooks/flood`, floodBody(i), {
            'Content-Type': 'application/json',
          })
        ).status;
      }
      if (kind === 1) return (await sendSigned(`missing-${i}`, floodBody(i))).status;
      const request = rawRequest('POST', '/webhooks/flood', {
        ...signedHeaders('{}'),
        'Content-Length': '300000',
      });
      return (
        statusOf(
          (await rawExchange(gateway.port, request, { doneWhen: hasJsonAnswer })).response,
        ) ?? 0
      );
    });
    return { statuses: [...signedStatuses, ...bad], accepted };
  }

  it('answers a flood with 202 up to the rate limit, then 429, never 5xx, and memory comes back', async () => {
    const pid = gateway.child.pid;
    expect(pid).toBeDefined();
    const warmup = await floodRound(200);
    await waitUntilFinished(warmup.accepted);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const baselineKiB = rssKiB(pid as number);

    const burst = await floodRound(2_000);
    const counts = new Map<number, number>();
    for (const status of burst.statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([202, 401, 404, 413, 429]);
    expect(counts.get(202)).toBeGreaterThan(0);
    await waitUntilFinished(burst.accepted, 60_000);
    await expectHealthy();

    if (baselineKiB === undefined) return; // no /proc: not Linux
    const boundKiB = baselineKiB + 60 * 1024;
    // Garbage is collected when V8 chooses; give it a few seconds before judging.
    const settledKiB = await waitFor(
      () => {
        const now = rssKiB(pid as number) ?? 0;
        return now < boundKiB ? now : undefined;
      },
      `RSS to settle below ${Math.round(boundKiB / 1024)} MiB (baseline ${Math.round(baselineKiB / 1024)} MiB, now ${Math.round((rssKiB(pid as number) ?? 0) / 1024)} MiB)`,
      { timeoutMs: 10_000 },
    ).catch(() => rssKiB(pid as number) ?? 0);
    expect(settledKiB).toBeLessThan(boundKiB);
  });
});

describe('clients that never finish (request_timeout_s: 2)', () => {
  it(
    'closes them by the server timeouts, answering 408 when it answers at all',
    async () => {
      const results = await slowClients;
      for (const [name, result] of Object.entries(results)) {
        expect(result.closedByServer, `${name} was still open after ${result.elapsedMs} ms`).toBe(
          true,
        );
        if (result.response !== '') expect(result.response, name).toMatch(/^HTTP\/1\.1 408 /);
      }
      await expectHealthy();
    },
    SLOW_CLIENT_WAIT_MS + 10_000,
  );
});

describe('after all of it', () => {
  it('is still up, answers /health, and logged no internal error', async () => {
    await expectHealthy();
    // The log file is written in batches, at most 100 ms behind: let the last one land.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const internal = gateway.logLines().filter((line) => line.msg === 'request failed');
    expect(internal).toEqual([]);
  });
});
