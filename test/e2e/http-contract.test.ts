/**
 * `docs/contract.md#the-order-of-checks` and `docs/contract.md#headers` against the real CLI:
 * every row, in order, with real payloads.
 */
import net from 'node:net';
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
  hasJsonAnswer,
  jsonBodyOf,
  rawExchange,
  rawRequest,
  statusOf,
} from '../support/hostile-http.js';
import { readAgentRecords, recordingAgent } from '../support/records.js';
import {
  fixture,
  newDeliveryId,
  post,
  sendAltforge,
  sendForge,
  signForge,
} from '../support/requests.js';

const SECRET = 'forge-secret-0123456789';
const GLOBAL = 'global-secret-9876543210';
const UNICODE_TOKEN = 'gl-tökén-välue';
const pullRequest = fixture('forge/pull_request_opened.json');
const mergeRequest = fixture('altforge/merge_request_open.json');

let gateway: StartedGateway;
let agentLog: string;

beforeAll(async () => {
  const home = makeHome();
  agentLog = path.join(home, 'agent.jsonl');
  gateway = await startGateway({
    home,
    config: {
      agent: recordingAgent(agentLog),
      platforms: {
        webhook: {
          extra: {
            secret: GLOBAL,
            max_body_bytes: 65_536,
            routes: {
              reviews: { secret: SECRET, events: ['pull_request'], prompt: 'PR #{number}' },
              anything: { secret: SECRET },
              fallback: { events: ['pull_request', 'merge_request'] },
              other: { secret: SECRET },
              unicode: { secret: UNICODE_TOKEN, events: ['merge_request'] },
            },
          },
        },
      },
    },
  });
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

describe('GET /health', () => {
  it('answers 200 with the platform and the pauses in force (none), without auth', async () => {
    const response = await fetch(`${gateway.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', platform: 'webhook', paused: [] });
  });
});

describe('GET /ready', () => {
  it('answers 200 while the store answers and the gateway is not draining, without auth', async () => {
    const response = await fetch(`${gateway.url}/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });
});

describe('row 1: unknown route', () => {
  it('answers 404 before looking at the signature', async () => {
    const sent = await post(`${gateway.url}/webhooks/nope`, '{}', {
      'Content-Type': 'application/json',
    });
    expect(sent.status).toBe(404);
    expect(sent.body).toEqual({ error: 'Unknown route' });
  });

  it('answers 404 for route names with dots and encoded slashes', async () => {
    for (const name of ['reviews.json', 'reviews%2F..', '%E2%9C%93', '..%2Freviews']) {
      const sent = await post(`${gateway.url}/webhooks/${name}`, '{}', {
        'Content-Type': 'application/json',
      });
      expect(sent.status, name).toBe(404);
    }
  });
});

describe('row 2: body too large', () => {
  it('answers 413 from Content-Length without reading the body', async () => {
    const body = Buffer.alloc(70_000, 'a');
    const sent = await sendForge(gateway.url, 'reviews', {
      body,
      secret: SECRET,
      event: 'pull_request',
    });
    expect(sent.status).toBe(413);
    expect(sent.body).toEqual({ error: 'Payload too large' });
  });

  it('answers 413 to a chunked body without Content-Length, before it is all sent', async () => {
    // A raw socket, so the test sees the answer even while the server cuts the upload short.
    const { port } = new URL(gateway.url);
    const result = await new Promise<{ response: string; bytesSent: number }>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let response = '';
      let bytesSent = 0;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        socket.destroy();
        resolve({ response, bytesSent });
      };
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        response += chunk;
        if (response.includes('\r\n\r\n') && response.includes('}')) finish();
      });
      socket.on('error', finish);
      socket.on('close', finish);
      socket.write(
        'POST /webhooks/reviews HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'X-Forge-Event: pull_request\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      const chunk = `4000\r\n${'x'.repeat(0x4000)}\r\n`;
      const pump = () => {
        // Up to 64 MiB: far more than the limit; stops as soon as the answer arrives.
        while (!finished && bytesSent < 64 * 1024 * 1024) {
          bytesSent += 0x4000;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    expect(result.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.response).toContain('{"error":"Payload too large"}');
    expect(result.bytesSent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('row 3: authentication', () => {
  it('answers 401 to a signature made with another secret', async () => {
    const sent = await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret: 'wrong',
      event: 'pull_request',
    });
    expect(sent.status).toBe(401);
    expect(sent.body).toEqual({ error: 'Invalid signature' });
  });

  it('answers 401 when no signature or token is sent', async () => {
    const sent = await post(`${gateway.url}/webhooks/reviews`, pullRequest, {
      'Content-Type': 'application/json',
      'X-Forge-Event': 'pull_request',
    });
    expect(sent.status).toBe(401);
  });

  it('answers 401 to an uppercase-hex or truncated signature', async () => {
    const good = signForge(pullRequest, SECRET);
    for (const signature of [
      good.toUpperCase(),
      `sha256=${good.slice(7).toUpperCase()}`,
      good.slice(0, -2),
      'sha256=',
      `sha1=${good.slice(7, 47)}`,
    ]) {
      const sent = await post(`${gateway.url}/webhooks/reviews`, pullRequest, {
        'Content-Type': 'application/json',
        'X-Forge-Event': 'pull_request',
        'X-Forge-Signature-256': signature,
      });
      expect(sent.status, signature).toBe(401);
    }
  });

  it('answers 401 to a wrong altforge token', async () => {
    const sent = await sendAltforge(gateway.url, 'fallback', { body: mergeRequest, token: 'nope' });
    expect(sent.status).toBe(401);
  });

  it('accepts a non-ASCII altforge token sent as raw UTF-8 bytes, and 401s a near miss', async () => {
    // The altforge puts the token's UTF-8 bytes on the wire, as curl -H does; fetch cannot.
    const send = async (token: string) => {
      const request = rawRequest(
        'POST',
        '/webhooks/unicode',
        {
          'Content-Type': 'application/json',
          'X-Gitlab-Event': 'Merge Request Hook',
          'X-Gitlab-Event-UUID': newDeliveryId(),
          'X-Gitlab-Token': token,
        },
        mergeRequest.toString('utf8'),
      );
      const exchange = await rawExchange(gateway.port, Buffer.from(request, 'utf8'), {
        doneWhen: hasJsonAnswer,
      });
      return { status: statusOf(exchange.response), body: jsonBodyOf(exchange.response) };
    };
    const right = await send(UNICODE_TOKEN);
    expect(right.status).toBe(202);
    expect(right.body).toMatchObject({ status: 'accepted', route: 'unicode' });
    const wrong = await send('gl-tokén-välue');
    expect(wrong).toEqual({ status: 401, body: { error: 'Invalid signature' } });
  });

  it('checks the signature before parsing, so bad JSON with a bad signature is 401', async () => {
    const sent = await sendForge(gateway.url, 'reviews', {
      body: '{not json',
      secret: 'wrong',
      event: 'pull_request',
    });
    expect(sent.status).toBe(401);
  });
});

describe('row 5: the body must be a JSON object', () => {
  it('answers 400 to malformed JSON, arrays, scalars and an empty body', async () => {
    for (const body of ['{"a":', '[1,2]', '"text"', '42', 'null', '']) {
      const sent = await sendForge(gateway.url, 'anything', {
        body,
        secret: SECRET,
        event: 'push',
      });
      expect(sent.status, body).toBe(400);
      expect(typeof sent.body.error).toBe('string');
    }
  });

  it('answers 415 to another content type', async () => {
    const sent = await sendForge(gateway.url, 'anything', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(sent.status).toBe(415);
    expect(typeof sent.body.error).toBe('string');
  });
});

describe('row 6: events', () => {
  it('answers 200 ignored for an event the route does not list', async () => {
    const sent = await sendForge(gateway.url, 'reviews', {
      body: fixture('forge/ping.json'),
      secret: SECRET,
      event: 'ping',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: 'ignored', event: 'ping' });
  });
});

describe('rows 7 and 8: duplicates and acceptance', () => {
  it('answers 202 with route, event and delivery id', async () => {
    const deliveryId = newDeliveryId();
    const sent = await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({
      status: 'accepted',
      route: 'reviews',
      event: 'pull_request',
      delivery_id: deliveryId,
    });
  });

  it('answers 200 duplicate to the same delivery id on the same route, and accepts it on another route', async () => {
    const deliveryId = newDeliveryId();
    const first = await sendForge(gateway.url, 'anything', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    const second = await sendForge(gateway.url, 'anything', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    const elsewhere = await sendForge(gateway.url, 'other', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(first.status).toBe(202);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ status: 'duplicate', delivery_id: deliveryId });
    expect(elsewhere.status).toBe(202);
  });
});

describe('other methods and encodings', () => {
  it('answers 405 to GET, PUT and DELETE on a webhook path', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(`${gateway.url}/webhooks/reviews`, { method });
      expect(response.status, method).toBe(405);
      expect(await response.json()).toEqual({ error: 'Method not allowed' });
    }
  });

  it('accepts the forge form encoding, signed over the form bytes', async () => {
    const body = `payload=${encodeURIComponent(pullRequest.toString('utf8'))}`;
    const sent = await sendForge(gateway.url, 'reviews', {
      body,
      secret: SECRET,
      event: 'pull_request',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(sent.status).toBe(202);
  });

  it('accepts application/json with a charset', async () => {
    const sent = await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(sent.status).toBe(202);
  });
});

describe('the HMAC covers the raw bytes', () => {
  it('verifies a body that is not valid UTF-8 exactly as signed', async () => {
    const body = Buffer.concat([
      Buffer.from('{"number": 7, "title": "caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('"}'),
    ]);
    const sent = await sendForge(gateway.url, 'anything', {
      body,
      secret: SECRET,
      event: 'issues',
    });
    expect(sent.status).toBe(202);
  });

  it('verifies JSON with unusual spacing and escapes', async () => {
    const body =
      '  {\n\t"title" :\t"\\u00e9t\\u00e9 \\/ \\"quoted\\"",  "n":1.50e1 ,"emoji":"\\ud83d\\ude00"}\r\n ';
    const sent = await sendForge(gateway.url, 'anything', {
      body,
      secret: SECRET,
      event: 'issues',
    });
    expect(sent.status).toBe(202);
  });
});

describe('headers of docs/contract.md#headers', () => {
  it('accepts the real forge header names', async () => {
    const deliveryId = newDeliveryId();
    const sent = await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
      aliases: true,
    });
    expect(sent.status).toBe(202);
    expect(sent.body.delivery_id).toBe(deliveryId);
  });

  it('accepts the altforge canonical and real header names, with their delivery ids', async () => {
    const canonical = await sendAltforge(gateway.url, 'fallback', {
      body: mergeRequest,
      token: GLOBAL,
      deliveryId: 'idem-1',
    });
    expect(canonical.status).toBe(202);
    expect(canonical.body).toEqual({
      status: 'accepted',
      route: 'fallback',
      event: 'Merge Request Hook',
      delivery_id: 'idem-1',
    });
    const real = await sendAltforge(gateway.url, 'fallback', {
      body: mergeRequest,
      token: GLOBAL,
      deliveryId: 'uuid-1',
      aliases: true,
    });
    expect(real.status).toBe(202);
    expect(real.body.delivery_id).toBe('uuid-1');
  });

  it('falls back to X-Request-ID, then to a fresh timestamp', async () => {
    const headers = {
      'Content-Type': 'application/json',
      'X-Forge-Event': 'issues',
      'X-Forge-Signature-256': signForge('{"a":1}', SECRET),
    };
    const withRequestId = await post(`${gateway.url}/webhooks/anything`, '{"a":1}', {
      ...headers,
      'X-Request-ID': 'req-77',
    });
    expect(withRequestId.body.delivery_id).toBe('req-77');
    const first = await post(`${gateway.url}/webhooks/anything`, '{"a":1}', headers);
    const second = await post(`${gateway.url}/webhooks/anything`, '{"a":1}', headers);
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(first.body.delivery_id).toMatch(/^\d{13,}$/);
    expect(second.body.delivery_id).not.toBe(first.body.delivery_id);
  });
});

describe('secrets', () => {
  it('uses the global secret for a route without one', async () => {
    const sent = await sendForge(gateway.url, 'fallback', {
      body: pullRequest,
      secret: GLOBAL,
      event: 'pull_request',
    });
    expect(sent.status).toBe(202);
    const wrong = await sendForge(gateway.url, 'fallback', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
    });
    expect(wrong.status).toBe(401);
  });

  it('takes both auth schemes on one route', async () => {
    const forge = await sendForge(gateway.url, 'fallback', {
      body: pullRequest,
      secret: GLOBAL,
      event: 'pull_request',
    });
    const altforge = await sendAltforge(gateway.url, 'fallback', {
      body: mergeRequest,
      token: GLOBAL,
    });
    expect([forge.status, altforge.status]).toEqual([202, 202]);
  });
});

describe('background processing', () => {
  it('runs the agent for an accepted delivery after answering, with the rendered prompt', async () => {
    const deliveryId = newDeliveryId();
    await sendForge(gateway.url, 'reviews', {
      body: pullRequest,
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    const record = await waitFor(
      () => readAgentRecords(agentLog).find((r) => r.deliveryId === deliveryId),
      'the agent run',
    );
    expect(record.prompt).toBe('PR #2');
    expect(record).toMatchObject({ route: 'reviews', event: 'pull_request' });
  });
});
