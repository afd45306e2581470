/**
 * The example third-party target (`examples/plugins/pager-target.mjs`): a local plugin file that
 * owns the `platforms.pager` slice. Validated at start with its key path, part of `config schema`,
 * and it delivers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  repoRoot,
  runCli,
  startGateway,
  waitFor,
  writeConfig,
} from '../support/gateway.js';
import { sendForge } from '../support/requests.js';

const SECRET = 'pager-secret-0123456789';
const pagerPlugin = path.join(repoRoot, 'examples/plugins/pager-target.mjs');

afterAll(() => cleanupHomes());

function pagerConfig(pager: unknown, plugins: unknown[] = [pagerPlugin]) {
  return {
    plugins,
    platforms: {
      pager,
      webhook: { extra: { secret: SECRET, routes: { alerts: { deliver: 'pager' } } } },
    },
  };
}

/** A pager service on 127.0.0.1 that keeps every page it is sent. */
async function startPagerService() {
  const pages: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      pages.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  return { url, pages, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the example pager plugin', () => {
  it('refuses a bad value in its slice at start, naming the key path', async () => {
    const home = makeHome();
    writeConfig(home, pagerConfig({ url: 'not a url', severity: 'loud' }));
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/invalid config.*\n?.*platforms\.pager\.url/);
    expect(result.stderr).toContain('platforms.pager.severity');
    const validate = await runCli(['config', 'validate', '--home', home]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('invalid config: platforms.pager.url:');
  });

  it('names an unknown key in its slice, and the whole slice when the plugin is not listed', async () => {
    const home = makeHome();
    writeConfig(home, pagerConfig({ url: 'http://127.0.0.1:9/page', colour: 'red' }));
    const withPlugin = await runCli(['config', 'validate', '--home', home]);
    expect(withPlugin.stderr).toContain('invalid config: platforms.pager.colour: unknown key');

    writeConfig(home, pagerConfig({ url: 'http://127.0.0.1:9/page' }, []));
    const withoutPlugin = await runCli(['config', 'validate', '--home', home]);
    expect(withoutPlugin.code).toBe(1);
    expect(withoutPlugin.stderr).toContain('invalid config: platforms.pager: unknown key');
  });

  it('puts its slice into config schema, with its defaults', async () => {
    const home = makeHome();
    writeConfig(home, pagerConfig({ url: 'http://127.0.0.1:9/page' }));
    const result = await runCli(['config', 'schema', '--home', home]);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as {
      properties: { platforms: { properties: Record<string, { properties?: object }> } };
    };
    const pager = schema.properties.platforms.properties.pager;
    expect(pager?.properties).toMatchObject({
      url: { type: 'string', format: 'uri' },
      severity: { enum: ['info', 'warning', 'critical'], default: 'info' },
    });
    // Without the plugin, the schema has no pager slice.
    const bare = await runCli(['config', 'schema', '--home', makeHome()]);
    const bareSchema = JSON.parse(bare.stdout) as typeof schema;
    expect(bareSchema.properties.platforms.properties.pager).toBeUndefined();
  });

  it('delivers an answer to the pager with its settings', async () => {
    const pager = await startPagerService();
    const home = makeHome();
    const gateway = await startGateway({
      home,
      config: pagerConfig({ url: pager.url, severity: 'critical' }),
    });
    try {
      const sent = await sendForge(gateway.url, 'alerts', {
        body: '{"alert":"disk full"}',
        secret: SECRET,
        event: 'push',
        deliveryId: 'page-1',
      });
      expect(sent.status).toBe(202);
      const page = await waitFor(() => pager.pages[0], 'the page');
      expect(page).toMatchObject({ severity: 'critical', route: 'alerts', delivery_id: 'page-1' });
      expect(String(page.text)).toContain('disk full');
    } finally {
      await gateway.stop();
      await pager.close();
    }
  });

  it('pages the new address after a reload changes platforms.pager, without a restart', async () => {
    const first = await startPagerService();
    const second = await startPagerService();
    const home = makeHome();
    const gateway = await startGateway({ home, config: pagerConfig({ url: first.url }) });
    try {
      writeConfig(home, pagerConfig({ url: second.url, severity: 'warning' }));
      gateway.child.kill('SIGHUP');
      await waitFor(
        () => gateway.logLines().find((line) => line.msg === 'config reloaded'),
        'the reload',
      );
      const sent = await sendForge(gateway.url, 'alerts', {
        body: '{"alert":"after reload"}',
        secret: SECRET,
        event: 'push',
        deliveryId: 'page-2',
      });
      expect(sent.status).toBe(202);
      const page = await waitFor(() => second.pages[0], 'the page at the new address');
      expect(page).toMatchObject({ severity: 'warning', delivery_id: 'page-2' });
      expect(first.pages).toEqual([]);
    } finally {
      await gateway.stop();
      await first.close();
      await second.close();
    }
  });
});
