import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HermesConfig, HermesSubscriptions } from './hermes-files.js';
import type { ImportNote } from './import-notes.js';
import { planHermesImport } from './import-plan.js';

const HERMES_HOME = '/home/op/.hermes';
const CONFIG_FILE = path.join(HERMES_HOME, 'config.yaml');

function plan(config: HermesConfig, subscriptions?: HermesSubscriptions) {
  return planHermesImport({ config, configFile: CONFIG_FILE, subscriptions });
}

function noteFor(notes: ImportNote[], key: string): ImportNote | undefined {
  return notes.find((note) => note.key === key);
}

function routes(routesConfig: Record<string, Record<string, unknown>>): HermesConfig {
  return { platforms: { webhook: { enabled: true, extra: { routes: routesConfig } } } };
}

describe('planHermesImport: routes', () => {
  it('passes the keys both gateways share as they are, in order', () => {
    const route = {
      events: ['pull_request'],
      secret: 's3cret-value-long',
      prompt: 'Review #{number}',
      deliver_only: false,
      enabled: true,
      coalesce: { key: '{number}', window_seconds: 10 },
      description: 'reviews',
    };
    const result = plan(routes({ reviews: route }));
    expect(result.routes.reviews).toEqual(route);
    expect(Object.keys(result.routes.reviews ?? {})).toEqual(Object.keys(route));
    expect(noteFor(result.notes, 'config.yaml: platforms.webhook.extra.routes.reviews')?.kind).toBe(
      'mapped',
    );
  });

  it('renames github_comment to forge_comment and says so', () => {
    const result = plan(
      routes({
        pr: { deliver: 'github_comment', deliver_extra: { repo: '{repository.full_name}' } },
      }),
    );
    expect(result.routes.pr?.deliver).toBe('forge_comment');
    expect(result.routes.pr?.deliver_extra).toEqual({ repo: '{repository.full_name}' });
    const note = noteFor(result.notes, 'config.yaml: platforms.webhook.extra.routes.pr.deliver');
    expect(note?.kind).toBe('changed');
    expect(note?.detail).toContain('forge_comment');
  });

  it('leaves out a cron_job route whole, and says what to do instead', () => {
    const result = plan(routes({ nightly: { cron_job: 'abc', prompt: 'x' } }));
    expect(result.routes).toEqual({});
    const note = noteFor(
      result.notes,
      'config.yaml: platforms.webhook.extra.routes.nightly.cron_job',
    );
    expect(note?.kind).toBe('left out');
    expect(note?.detail).toMatch(/prompt and a target instead/);
  });

  it('a target with no equivalent delivers to the log, and the platform is reported', () => {
    const result = plan({
      platforms: {
        whatsapp: { enabled: true },
        webhook: { extra: { routes: { wa: { deliver: 'whatsapp', prompt: 'hi' } } } },
      },
    });
    expect(result.routes.wa?.deliver).toBe('log');
    expect(result.platforms).toEqual({});
    expect(
      noteFor(result.notes, 'config.yaml: platforms.webhook.extra.routes.wa.deliver')?.kind,
    ).toBe('left out');
    expect(noteFor(result.notes, 'config.yaml: platforms.whatsapp')?.kind).toBe('left out');
  });

  it('reports each key with no equivalent, with what to do instead', () => {
    const result = plan(
      routes({
        r: {
          prompt: 'x',
          toolsets: ['web'],
          mirror_to_session: true,
          retry_on_script_failure: true,
          profile: 'work',
          created_at: '2026-01-01T00:00:00Z',
          surprise: 1,
        },
      }),
    );
    expect(result.routes.r).toEqual({ prompt: 'x' });
    const at = 'config.yaml: platforms.webhook.extra.routes.r';
    expect(noteFor(result.notes, `${at}.toolsets`)?.detail).toContain('agent.terminal');
    expect(noteFor(result.notes, `${at}.mirror_to_session`)?.kind).toBe('left out');
    expect(noteFor(result.notes, `${at}.retry_on_script_failure`)?.detail).toContain('retried');
    expect(noteFor(result.notes, `${at}.profile`)?.detail).toContain('/p/work/');
    expect(noteFor(result.notes, `${at}.surprise`)?.kind).toBe('left out');
    // Hermes' own bookkeeping is neither carried nor reported.
    expect(noteFor(result.notes, `${at}.created_at`)).toBeUndefined();
  });

  it('copies scripts, in_file lists and skills from Hermes’ home, with paths relative to this one', () => {
    const result = plan({
      platforms: {
        webhook: {
          extra: {
            script_timeout_seconds: 20,
            routes: {
              r: {
                script: ['check.py', '--strict'],
                skills: ['code-review'],
                filters: {
                  any: [
                    { field: 'sender.login', in_file: '~/.hermes/lists/people.txt' },
                    { field: 'repo', in_file: '/srv/elsewhere/repos.json' },
                  ],
                },
              },
            },
          },
        },
      },
    });
    expect(result.routes.r?.script).toEqual(['check.py', '--strict']);
    expect(result.routes.r?.script_timeout_seconds).toBe(20);
    expect(result.routes.r?.filters).toEqual({
      any: [
        { field: 'sender.login', in_file: 'lists/people.txt' },
        { field: 'repo', in_file: 'lists/repos.json' },
      ],
    });
    expect(result.copies.map(({ from, to, what }) => ({ from, to, what }))).toEqual([
      { from: path.join(HERMES_HOME, 'scripts/check.py'), to: 'scripts/check.py', what: 'script' },
      { from: path.join(HERMES_HOME, 'skills'), to: 'skills/code-review', what: 'skill' },
      {
        from: path.join(HERMES_HOME, 'lists/people.txt'),
        to: 'lists/people.txt',
        what: 'in_file list',
      },
      { from: '/srv/elsewhere/repos.json', to: 'lists/repos.json', what: 'in_file list' },
    ]);
  });
});

describe('planHermesImport: platforms and the rest', () => {
  it('takes the webhook keys both share; script_timeout_seconds moves to the routes', () => {
    const result = plan({
      platforms: {
        webhook: {
          enabled: true,
          extra: {
            host: '0.0.0.0',
            port: 8644,
            secret: '${WEBHOOK_SECRET}',
            rate_limit: 60,
            max_body_bytes: 1000,
            foo: 1,
          },
        },
      },
    });
    expect(result.webhookEnabled).toBe(true);
    expect(result.webhookExtra).toEqual({
      host: '0.0.0.0',
      port: 8644,
      secret: '${WEBHOOK_SECRET}',
      rate_limit: 60,
      max_body_bytes: 1000,
    });
    expect(noteFor(result.notes, 'config.yaml: platforms.webhook.extra.foo')?.kind).toBe(
      'left out',
    );
  });

  it('a messenger a route uses gets its token from Hermes’ environment variable when config.yaml has none', () => {
    const result = plan({
      platforms: {
        telegram: { enabled: true, home_channel: { chat_id: -100, thread_id: 7 } },
        webhook: { extra: { routes: { a: { deliver: 'telegram' } } } },
      },
    });
    expect(result.platforms.telegram).toEqual({
      enabled: true,
      token: '${TELEGRAM_BOT_TOKEN}',
      home_channel: '-100',
    });
    expect(result.notes.some((note) => note.detail.includes('${TELEGRAM_BOT_TOKEN}'))).toBe(true);
    expect(
      noteFor(result.notes, 'config.yaml: platforms.telegram.home_channel.thread_id')?.kind,
    ).toBe('left out');
  });

  it('a platform only a route names is enabled from the environment; an unused, disabled one is skipped', () => {
    const result = plan({
      platforms: {
        discord: { enabled: false },
        webhook: { extra: { routes: { a: { deliver: 'slack' } } } },
      },
    });
    expect(Object.keys(result.platforms)).toEqual(['slack']);
    expect(result.platforms.slack?.token).toBe('${SLACK_BOT_TOKEN}');
  });

  it('names Hermes’ model in the hint for the agent, and reports other top-level keys', () => {
    const result = plan({ model: { default: 'anthropic/claude-sonnet-4' }, terminal: {} });
    expect(noteFor(result.notes, 'config.yaml: model')?.detail).toContain(
      'agent.model: anthropic/claude-sonnet-4',
    );
    expect(noteFor(result.notes, 'config.yaml: terminal')?.kind).toBe('left out');
  });
});

describe('planHermesImport: subscriptions', () => {
  it('a subscription with only subscription fields stays a subscription', () => {
    const result = plan(
      {},
      {
        ci: {
          description: 'CI',
          events: ['push'],
          secret: 'sub-secret-abcdefghijkl',
          prompt: 'Push to {ref}',
          skills: [],
          deliver: 'telegram',
          deliver_extra: { chat_id: 99 },
          profile: 'default',
          created_at: '2026-01-01T00:00:00Z',
        },
      },
    );
    expect(result.subscriptions).toEqual([
      {
        name: 'ci',
        events: ['push'],
        prompt: 'Push to {ref}',
        deliver: 'telegram',
        deliverChatId: '99',
        skills: [],
        secret: 'sub-secret-abcdefghijkl',
        description: 'CI',
      },
    ]);
    expect(result.routes).toEqual({});
    expect(Object.keys(result.platforms)).toEqual(['telegram']);
  });

  it('one with a script or deliver_only becomes a static route, and the note says why', () => {
    const result = plan(
      {},
      {
        alerts: {
          secret: 'x-secret-abcdefghijkl',
          prompt: 'x',
          script: 'a.sh',
          deliver_only: true,
        },
      },
    );
    expect(result.subscriptions).toEqual([]);
    expect(result.routes.alerts).toEqual({
      secret: 'x-secret-abcdefghijkl',
      prompt: 'x',
      script: 'a.sh',
      deliver_only: true,
    });
    const note = result.notes.find(
      (n) => n.key === 'webhook_subscriptions.json: alerts' && n.kind === 'changed',
    );
    expect(note?.detail).toContain('script, deliver_only');
  });
});
