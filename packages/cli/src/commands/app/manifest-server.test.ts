/** The page server on a real loopback port: the page, the state check, one code only. */
import { afterEach, describe, expect, it } from 'vitest';
import { startManifestServer, type ManifestServer } from './manifest-server.js';

let server: ManifestServer | undefined;
const refused: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  refused.splice(0);
});

async function start(): Promise<ManifestServer> {
  server = await startManifestServer({
    page: (redirectUrl) => `<p>back to ${redirectUrl}</p>`,
    state: 'the-state',
    formTarget: 'https://ghe.example.com',
    onRefused: (why) => refused.push(why),
  });
  return server;
}

describe('the manifest page server', () => {
  it('serves the page on 127.0.0.1, letting its form post to the forge only', async () => {
    const { url, redirectUrl } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(url);
    expect(await response.text()).toBe(`<p>back to ${redirectUrl}</p>`);
    expect(response.headers.get('content-security-policy')).toContain(
      "form-action https://ghe.example.com 'self'",
    );
  });

  it('refuses a redirect without the run’s state, and takes the one with it, once', async () => {
    const { redirectUrl, code } = await start();
    const forged = await fetch(`${redirectUrl}?code=attacker&state=guess`);
    expect(forged.status).toBe(400);
    expect((await fetch(`${redirectUrl}?code=attacker`)).status).toBe(400);
    expect(refused).toHaveLength(2);

    const answer = fetch(`${redirectUrl}?code=good&state=the-state`);
    expect(await code).toBe('good');
    expect((await fetch(`${redirectUrl}?code=again&state=the-state`)).status).toBe(409);
    await server?.finish(200, 'saved');
    const done = await answer;
    expect(done.status).toBe(200);
    expect(await done.text()).toBe('saved');
  });

  it('refuses requests that name another host (DNS rebinding)', async () => {
    const { url } = await start();
    const { port } = new URL(url);
    const http = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        )
        .on('error', reject);
    });
    expect(status).toBe(421);
  });
});
