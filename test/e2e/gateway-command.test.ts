/** The `gateway` command as an operator meets it: startup line, refusals, signals, logs. */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  waitFor,
  writeConfig,
} from '../support/gateway.js';
import { readAgentRecords, recordingAgent } from '../support/records.js';
import { fixture, newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'command-secret-42424242';

afterAll(() => cleanupHomes());

describe('webhook-gateway gateway', () => {
  it('prints exactly the listening line, routes in config order', async () => {
    const gateway = await startGateway({
      config: {
        platforms: {
          webhook: { extra: { secret: SECRET, routes: { zeta: {}, alpha: {}, mid: {} } } },
        },
      },
    });
    try {
      expect(gateway.stdout()).toBe(
        `[webhook] Listening on 127.0.0.1:${gateway.port} — routes: zeta, alpha, mid\n`,
      );
    } finally {
      await gateway.stop();
    }
  });

  it('warns at start that no agent is configured, in the log file', async () => {
    const gateway = await startGateway({
      config: { platforms: { webhook: { extra: { secret: SECRET, routes: { a: {} } } } } },
    });
    await gateway.stop();
    const warning = gateway
      .logLines()
      .find((line) => String(line.msg).includes('no agent is configured'));
    expect(warning?.level).toBe(40);
  });

  it('refuses a port in use with one line naming the port and extra.port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const home = makeHome();
      writeConfig(home, {
        platforms: { webhook: { extra: { port, secret: SECRET, routes: { a: {} } } } },
      });
      const result = await runCli(['gateway', '--home', home]);
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(String(port));
      expect(lines[0]).toContain('extra.port');
    } finally {
      blocker.close();
    }
  });

  it('reports every config problem with its key path and exits 1', async () => {
    const home = makeHome();
    writeConfig(
      home,
      'platforms:\n  webhook:\n    extra:\n      port: "eighty"\n      rate_limt: 5\n      routes:\n        a:\n          events: push\nagent:\n  max_turns: -1\n',
    );
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('platforms.webhook.extra.port');
    expect(result.stderr).toContain('platforms.webhook.extra.rate_limt: unknown key');
    expect(result.stderr).toContain('platforms.webhook.extra.routes.a.events');
    expect(result.stderr).toContain('agent.max_turns');
    expect(result.stdout).toBe('');
  });

  it('names the unset environment variable and its key', async () => {
    const home = makeHome();
    writeConfig(
      home,
      'platforms:\n  webhook:\n    extra:\n      secret: ${WG_TEST_UNSET_SECRET}\n',
    );
    const result = await runCli(['gateway', '--home', home], {
      env: { WG_TEST_UNSET_SECRET: undefined },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'platforms.webhook.extra.secret: environment variable WG_TEST_UNSET_SECRET is not set',
    );
  });

  it('expands ${ENV} in config values', async () => {
    const gateway = await startGateway({
      config:
        'platforms:\n  webhook:\n    extra:\n      host: 127.0.0.1\n      port: 0\n      secret: ${WG_TEST_SECRET}\n      routes:\n        env: {}\n',
      env: { WG_TEST_SECRET: 'from-the-environment' },
    });
    try {
      const sent = await sendForge(gateway.url, 'env', {
        body: '{"a":1}',
        secret: 'from-the-environment',
        event: 'push',
      });
      expect(sent.status).toBe(202);
      expect(fs.readFileSync(path.join(gateway.home, 'logs', 'gateway.log'), 'utf8')).not.toContain(
        'from-the-environment',
      );
    } finally {
      await gateway.stop();
    }
  });

  it('refuses a route without a secret, naming the route', async () => {
    const home = makeHome();
    writeConfig(home, { platforms: { webhook: { extra: { routes: { lonely: {} } } } } });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('route "lonely" has no secret');
  });

  it('refuses INSECURE_NO_AUTH on a non-loopback bind and says why', async () => {
    const home = makeHome();
    writeConfig(home, {
      platforms: {
        webhook: { extra: { host: '0.0.0.0', routes: { open: { secret: 'INSECURE_NO_AUTH' } } } },
      },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INSECURE_NO_AUTH');
    expect(result.stderr).toContain('loopback');
  });

  it('takes unsigned deliveries with INSECURE_NO_AUTH on loopback', async () => {
    const gateway = await startGateway({
      config: {
        platforms: { webhook: { extra: { routes: { open: { secret: 'INSECURE_NO_AUTH' } } } } },
      },
    });
    try {
      const response = await fetch(`${gateway.url}/webhooks/open`, {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(202);
    } finally {
      await gateway.stop();
    }
  });

  it('rate-limits per route over a rolling minute with Retry-After', async () => {
    const gateway = await startGateway({
      config: {
        platforms: {
          webhook: { extra: { secret: SECRET, rate_limit: 3, routes: { limited: {}, spare: {} } } },
        },
      },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (
            await sendForge(gateway.url, 'limited', {
              body: '{"i":1}',
              secret: SECRET,
              event: 'push',
            })
          ).status,
        );
      }
      expect(statuses).toEqual([202, 202, 202, 429]);
      const limited = await sendForge(gateway.url, 'limited', {
        body: '{"i":1}',
        secret: SECRET,
        event: 'push',
      });
      expect(limited.body).toEqual({ error: 'Rate limit exceeded' });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // another route has its own window; a bad signature is refused before it counts
      expect(
        (await sendForge(gateway.url, 'spare', { body: '{"i":1}', secret: SECRET, event: 'push' }))
          .status,
      ).toBe(202);
      expect(
        (
          await sendForge(gateway.url, 'limited', {
            body: '{"i":1}',
            secret: 'wrong',
            event: 'push',
          })
        ).status,
      ).toBe(401);
    } finally {
      await gateway.stop();
    }
  });

  it('logs ignored deliveries at DEBUG only', async () => {
    const config = {
      platforms: {
        webhook: { extra: { secret: SECRET, routes: { pr: { events: ['pull_request'] } } } },
      },
    };
    for (const level of ['info', 'debug']) {
      const gateway = await startGateway({ config, args: ['--log-level', level] });
      const deliveryId = newDeliveryId();
      await sendForge(gateway.url, 'pr', {
        body: fixture('forge/ping.json'),
        secret: SECRET,
        event: 'ping',
        deliveryId,
      });
      await gateway.stop();
      const ignored = gateway
        .logLines()
        .filter((line) => line.msg === 'ignored' && line.delivery_id === deliveryId);
      expect(ignored.length, level).toBe(level === 'debug' ? 1 : 0);
      if (level === 'debug') expect(ignored[0]).toMatchObject({ route: 'pr', level: 20 });
    }
  });

  it('on SIGTERM stops accepting, lets running work finish and exits 0', async () => {
    const home = makeHome();
    const agentLog = path.join(home, 'agent.jsonl');
    const gateway = await startGateway({
      home,
      config: {
        agent: recordingAgent(agentLog, 'sleep:1500'),
        platforms: { webhook: { extra: { secret: SECRET, routes: { slow: {} } } } },
      },
    });
    const deliveryId = newDeliveryId();
    expect(
      (
        await sendForge(gateway.url, 'slow', {
          body: '{"a":1}',
          secret: SECRET,
          event: 'push',
          deliveryId,
        })
      ).status,
    ).toBe(202);
    await waitFor(
      () => gateway.logLines().find((line) => line.msg === 'running agent'),
      'the agent to start',
    );
    const code = await gateway.stop('SIGTERM');
    expect(code).toBe(0);
    expect(readAgentRecords(agentLog).map((r) => r.deliveryId)).toEqual([deliveryId]);
    expect(
      gateway
        .logLines()
        .some((line) => line.msg === 'delivered' && line.delivery_id === deliveryId),
    ).toBe(true);
  });

  it('prints its version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on a usage error', async () => {
    const result = await runCli(['gateway', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--no-such-flag');
  });
});
