import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { testDelivery } from './test-request.js';
import { GatewayUnreachableError, answerHint, sendTestDelivery } from './test-send.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const subscription = { name: 'ci', events: [], secret: 'the-secret-0123456789' };

describe('sendTestDelivery', () => {
  it('posts the signed body and returns the status and body of the answer', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const baseUrl = await listen((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
      });
    });
    const delivery = testDelivery(subscription, { baseUrl });
    const answer = await sendTestDelivery(delivery);
    expect(answer).toEqual({ status: 202, body: '{"status":"accepted"}' });
    expect(received[0]?.body).toBe(delivery.body);
    expect(received[0]?.headers['x-forge-signature-256']).toBe(
      delivery.headers['X-Forge-Signature-256'],
    );
  });

  it('says in one line that no gateway answers when the port is closed', async () => {
    const baseUrl = await listen(() => undefined);
    const closed = servers.pop();
    await new Promise((resolve) => closed?.close(resolve));
    const error = await sendTestDelivery(testDelivery(subscription, { baseUrl })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayUnreachableError);
    const message = (error as Error).message;
    expect(message).toContain(`no gateway answers at ${baseUrl}`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).not.toContain('\n');
  });
});

describe('answerHint', () => {
  it('has nothing to add to a 2xx', () => {
    expect(answerHint(202, 'ci')).toBeUndefined();
    expect(answerHint(200, 'ci')).toBeUndefined();
  });

  it('explains 404 and 401 in terms of the home and store the gateway runs with', () => {
    expect(answerHint(404, 'ci')).toContain('same home');
    expect(answerHint(401, 'ci')).toContain('signature');
  });
});
