/**
 * Hot reload (issue 6, item 5) of the running gateway: by SIGHUP and by a change of config.yaml,
 * valid configs applied, invalid ones rejected with their errors while the old one keeps serving,
 * and a delivery in flight during a reload still completes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  startGateway,
  waitFor,
  withLoopbackDefaults,
  writeConfig,
  type ConfigObject,
  type StartedGateway,
} from '../support/gateway.js';
import { fixture, newDeliveryId, sendForge } from '../support/requests.js';
import { stringify } from 'yaml';

const OLD = 'reload-old-secret-1111111111';
const NEW = 'reload-new-secret-2222222222';
const push = fixture('forge/push.json');
const closed = fixture('forge/pull_request_closed.json');

const running: StartedGateway[] = [];
afterEach(async () => {
  for (const gateway of running.splice(0)) await gateway.stop();
});
afterAll(() => cleanupHomes());

async function start(config: ConfigObject, env: Record<string, string> = {}) {
  const gateway = await startGateway({ config, env });
  running.push(gateway);
  return gateway;
}

function webhookConfig(extra: Record<string, unknown>, rest: ConfigObject = {}): ConfigObject {
  return { ...rest, platforms: { webhook: { extra: { rate_limit: 1000, ...extra } } } };
}

/** Replaces config.yaml the way many editors save: a new file renamed over the old one. */
function saveLikeAnEditor(home: string, config: ConfigObject | string): void {
  const text = typeof config === 'string' ? config : stringify(withLoopbackDefaults(config));
  const temporary = path.join(home, '.config.yaml.tmp');
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, path.join(home, 'config.yaml'));
}

/** The log lines with `msg` starting with `prefix`, from `trigger`. */
function reloadLines(gateway: StartedGateway, prefix: string, trigger: string) {
  return gateway
    .logLines()
    .filter((l) => String(l.msg).startsWith(prefix) && l.trigger === trigger);
}

/** Waits for the `count`-th reload outcome line of this trigger and returns it. */
function nthReload(gateway: StartedGateway, trigger: string, count: number) {
  return waitFor(() => {
    const lines = gateway
      .logLines()
      .filter(
        (l) =>
          l.trigger === trigger &&
          (l.msg === 'config reloaded' || String(l.msg).startsWith('config reload rejected')),
      );
    return lines.length >= count ? lines[count - 1] : undefined;
  }, `reload #${count} by ${trigger}`);
}

const send = (
  gateway: StartedGateway,
  route: string,
  secret: string,
  body = push,
  event = 'push',
) => sendForge(gateway.url, route, { body, secret, event });

describe('reload on SIGHUP (file watching off)', () => {
  it('applies new routes and secrets, and rejects invalid configs keeping the old one', async () => {
    const gateway = await start(webhookConfig({ secret: OLD, routes: { first: {} } }), {
      WEBHOOK_GATEWAY_WATCH_CONFIG: '0',
    });
    expect((await send(gateway, 'first', OLD)).status).toBe(202);

    writeConfig(gateway.home, webhookConfig({ secret: NEW, routes: { first: {}, second: {} } }));
    gateway.child.kill('SIGHUP');
    const reloaded = await nthReload(gateway, 'SIGHUP', 1);
    expect(reloaded).toMatchObject({
      level: 30,
      msg: 'config reloaded',
      routes: ['first', 'second'],
    });
    expect((await send(gateway, 'second', NEW)).status).toBe(202);
    expect((await send(gateway, 'first', NEW)).status).toBe(202);
    expect((await send(gateway, 'first', OLD)).status).toBe(401);

    // a schema error: rejected with its key path, the running config keeps serving
    writeConfig(gateway.home, webhookConfig({ secret: OLD, rate_limt: 5, routes: { third: {} } }));
    gateway.child.kill('SIGHUP');
    const schemaError = await nthReload(gateway, 'SIGHUP', 2);
    expect(schemaError).toMatchObject({
      level: 50,
      problems: [{ path: 'platforms.webhook.extra.rate_limt', message: 'unknown key' }],
    });
    expect(String(schemaError.msg)).toMatch(/^config reload rejected; keeping the running config/);
    expect((await send(gateway, 'second', NEW)).status).toBe(202);
    expect((await send(gateway, 'third', OLD)).status).toBe(404);

    // what only the startup checks find is rejected too: a route to a disabled platform
    writeConfig(
      gateway.home,
      webhookConfig({ secret: OLD, routes: { chat: { deliver: 'discord' } } }),
    );
    gateway.child.kill('SIGHUP');
    const startupError = await nthReload(gateway, 'SIGHUP', 3);
    expect(startupError).toMatchObject({
      level: 50,
      problems: [
        {
          path: 'platforms.webhook.extra.routes.chat.deliver',
          message: 'delivers to messenger_b, but platforms.messenger_b.enabled is not true',
        },
      ],
    });
    expect((await send(gateway, 'chat', OLD)).status).toBe(404);
    expect((await send(gateway, 'first', NEW)).status).toBe(202);

    expect(reloadLines(gateway, 'config reload', 'file change')).toEqual([]);
    expect(gateway.child.exitCode).toBeNull();
  });
});

describe('reload on a change of config.yaml', () => {
  it('applies a file saved by rename, and rejects an invalid one keeping the old config', async () => {
    const gateway = await start(webhookConfig({ secret: OLD, routes: { reviews: {} } }));
    const closedPr = () => send(gateway, 'reviews', OLD, closed, 'pull_request');
    expect((await closedPr()).status).toBe(202);

    saveLikeAnEditor(
      gateway.home,
      webhookConfig({ secret: OLD, routes: { reviews: { actions: ['opened'] } } }),
    );
    expect(await nthReload(gateway, 'file change', 1)).toMatchObject({ msg: 'config reloaded' });
    expect((await closedPr()).body).toEqual({
      status: 'ignored',
      event: 'pull_request',
      reason: 'action',
    });

    saveLikeAnEditor(gateway.home, 'platforms:\n  webhook: [this is not a mapping\n');
    const rejected = await nthReload(gateway, 'file change', 2);
    expect(String(rejected.msg)).toMatch(/^config reload rejected/);
    expect(rejected.problems).toEqual([
      expect.objectContaining({ path: expect.stringContaining('config.yaml') as string }),
    ]);
    expect((await closedPr()).body).toMatchObject({ reason: 'action' });

    // written in place (no rename) works as well
    writeConfig(gateway.home, webhookConfig({ secret: NEW, routes: { reviews: {} } }));
    expect(await nthReload(gateway, 'file change', 3)).toMatchObject({ msg: 'config reloaded' });
    expect((await send(gateway, 'reviews', NEW, closed, 'pull_request')).status).toBe(202);
  });
});

describe('a delivery in flight during a reload', () => {
  it('completes with the config it started with; the next one uses the new config', async () => {
    // An agent that says when it started and answers only once the test releases it.
    const gate = `
      import fs from 'node:fs';
      const dir = process.argv[2];
      let prompt = '';
      for await (const chunk of process.stdin) prompt += chunk;
      const id = process.env.WEBHOOK_DELIVERY_ID;
      // written whole, then renamed: the test never reads half of it
      fs.writeFileSync(dir + '/.started-' + id, prompt);
      fs.renameSync(dir + '/.started-' + id, dir + '/started-' + id);
      while (!fs.existsSync(dir + '/release-' + id)) await new Promise((r) => setTimeout(r, 20));
      process.stdout.write('answer to: ' + prompt);
    `;
    const gateway = await start(
      webhookConfig({ secret: OLD, routes: { slow: { prompt: 'old prompt' } } }),
    );
    const agentFile = path.join(gateway.home, 'gate-agent.mjs');
    fs.writeFileSync(agentFile, gate);
    const agent = {
      runner: 'command',
      command: [process.execPath, agentFile, gateway.home],
      timeout_s: 60,
    };
    const withAgent = (secret: string, prompt: string) =>
      webhookConfig({ secret, routes: { slow: { prompt } } }, { agent });
    saveLikeAnEditor(gateway.home, withAgent(OLD, 'old prompt'));
    expect(await nthReload(gateway, 'file change', 1)).toMatchObject({ msg: 'config reloaded' });

    const first = newDeliveryId();
    const sent = await sendForge(gateway.url, 'slow', {
      body: push,
      secret: OLD,
      event: 'push',
      deliveryId: first,
    });
    expect(sent.status).toBe(202);
    await waitFor(
      () => (fs.existsSync(path.join(gateway.home, `started-${first}`)) ? true : undefined),
      'the agent to start',
    );

    saveLikeAnEditor(gateway.home, withAgent(NEW, 'new prompt'));
    expect(await nthReload(gateway, 'file change', 2)).toMatchObject({ msg: 'config reloaded' });
    fs.writeFileSync(path.join(gateway.home, `release-${first}`), '');

    const answered = await waitFor(
      () => gateway.logLines().find((l) => l.delivery_id === first && l.msg === 'agent answer'),
      'the in-flight delivery to be delivered',
    );
    expect(answered.answer).toBe('answer to: old prompt');
    await waitFor(
      () => gateway.logLines().find((l) => l.delivery_id === first && l.msg === 'delivered'),
      'the delivered line',
    );

    const second = newDeliveryId();
    expect(
      (await sendForge(gateway.url, 'slow', { body: push, secret: OLD, event: 'push' })).status,
    ).toBe(401);
    expect(
      (
        await sendForge(gateway.url, 'slow', {
          body: push,
          secret: NEW,
          event: 'push',
          deliveryId: second,
        })
      ).status,
    ).toBe(202);
    await waitFor(
      () => (fs.existsSync(path.join(gateway.home, `started-${second}`)) ? true : undefined),
      'the second run to start',
    );
    expect(fs.readFileSync(path.join(gateway.home, `started-${second}`), 'utf8')).toBe(
      'new prompt',
    );
    fs.writeFileSync(path.join(gateway.home, `release-${second}`), '');
  });
});
