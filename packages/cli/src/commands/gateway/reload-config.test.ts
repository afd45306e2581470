import {
  ConfigError,
  StartupError,
  parseConfig,
  type GatewayConfig,
  type Logger,
} from '@webhook-gateway/core';
import { gate } from '@webhook-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import { createConfigReloader, type ReloadDeps } from './reload-config.js';

interface LogLine {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps what it is told (only the calls the reloader makes). */
function recordingLog(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (fields: Record<string, unknown>, msg: string): void => {
      lines.push({ level, fields, msg });
    };
  const log = { info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { log, lines };
}

function configWith(routes: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return parseConfig({ platforms: { webhook: { extra: { secret: 's', routes, ...extra } } } });
}

function harness(overrides: Partial<ReloadDeps> = {}) {
  const { log, lines } = recordingLog();
  let running = configWith({ old: {} });
  const deps: ReloadDeps = {
    load: async () => configWith({ old: {}, added: {} }),
    check: async () => [],
    current: () => running,
    apply: (next) => {
      running = next;
    },
    log,
    ...overrides,
  };
  return { reload: createConfigReloader(deps), lines, running: () => running };
}

describe('createConfigReloader', () => {
  it('applies a valid config and logs "config reloaded" with the trigger and routes', async () => {
    const { reload, lines, running } = harness();
    expect(await reload('SIGHUP')).toEqual({
      status: 'reloaded',
      routes: ['old', 'added'],
      restartOnly: [],
    });
    expect(Object.keys(running().platforms.webhook.extra.routes)).toEqual(['old', 'added']);
    expect(lines).toEqual([
      {
        level: 'info',
        fields: { trigger: 'SIGHUP', routes: ['old', 'added'] },
        msg: 'config reloaded',
      },
    ]);
  });

  it('keeps the running config when the file does not parse, logging each problem', async () => {
    const problem = { path: 'platforms.webhook.extra.rate_limt', message: 'unknown key' };
    const { reload, lines, running } = harness({
      load: async () => {
        throw new ConfigError([problem]);
      },
    });
    const before = running();
    expect(await reload('file change')).toEqual({ status: 'rejected', problems: [problem] });
    expect(running()).toBe(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('error');
    expect(lines[0]?.fields).toEqual({ trigger: 'file change', problems: [problem] });
    expect(lines[0]?.msg).toMatch(/^config reload rejected; keeping the running config: /);
    expect(lines[0]?.msg).toContain('platforms.webhook.extra.rate_limt: unknown key');
  });

  it('keeps the running config when the startup checks find a problem', async () => {
    const problem = {
      path: 'platforms.webhook.extra.routes.added.deliver',
      message: 'not enabled',
    };
    let applied = false;
    const { reload } = harness({
      check: async () => [problem],
      apply: () => {
        applied = true;
      },
    });
    expect(await reload('SIGHUP')).toEqual({ status: 'rejected', problems: [problem] });
    expect(applied).toBe(false);
  });

  it("keeps the running config when core's reload refuses it", async () => {
    const { reload, lines } = harness({
      apply: () => {
        throw new StartupError('route "added" has no secret: set …');
      },
    });
    const outcome = await reload('SIGHUP');
    expect(outcome).toMatchObject({
      status: 'rejected',
      problems: [{ path: 'platforms.webhook.extra.routes.added' }],
    });
    expect(lines.map((l) => l.level)).toEqual(['error']);
  });

  it('warns about settings that only a restart applies', async () => {
    const { reload, lines } = harness({ load: async () => configWith({ old: {} }, { port: 9 }) });
    expect(await reload('file change')).toMatchObject({
      status: 'reloaded',
      restartOnly: ['platforms.webhook.extra.port'],
    });
    expect(lines.map((l) => l.level)).toEqual(['info', 'warn']);
    expect(lines[1]?.msg).toContain('platforms.webhook.extra.port');
  });

  it('runs reloads one after another, so the last one asked for stays applied', async () => {
    const order: string[] = [];
    const configs = [configWith({ first: {} }), configWith({ second: {} })];
    const loadHeld = gate();
    let loads = 0;
    const { reload, running } = harness({
      load: async () => {
        const index = loads++;
        order.push(`load ${index}`);
        if (index === 0) await loadHeld.opened;
        return configs[index] as GatewayConfig;
      },
      check: async (config) => {
        order.push(`check ${Object.keys(config.platforms.webhook.extra.routes).join()}`);
        return [];
      },
    });
    const first = reload('file change');
    const second = reload('SIGHUP');
    loadHeld.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['load 0', 'check first', 'load 1', 'check second']);
    expect(Object.keys(running().platforms.webhook.extra.routes)).toEqual(['second']);
  });
});
