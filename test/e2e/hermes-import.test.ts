/**
 * `webhook-gateway import hermes` as a Hermes user runs it: a Hermes home (config.yaml, scripts,
 * lists, a skill in a category folder, webhook_subscriptions.json) imported into a gateway home
 * that already has a config, then the gateway started on the result and sent the requests Hermes'
 * senders send (signed with `X-Hub-Signature-256`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  cleanupHomes,
  makeHome,
  runCli,
  startGateway,
  type CliResult,
  type StartedGateway,
} from '../support/gateway.js';
import { finishedRow } from '../support/journal-read.js';
import { newDeliveryId, post, signForge } from '../support/requests.js';

const ROUTE_SECRET = 'hermes-route-secret-0123';
const SUBSCRIPTION_SECRET = 'hermes-subscription-secret-4567';

/** Hermes' config.yaml as its docs write one: a webhook platform, a cron route, Hermes' agent. */
const HERMES_CONFIG = `# Hermes Agent
model:
  default: anthropic/claude-sonnet-4
  provider: openrouter
platforms:
  webhook:
    enabled: true
    extra:
      secret: \${HERMES_GLOBAL_SECRET}
      rate_limit: 120
      script_timeout_seconds: 15
      routes:
        reviews:
          events: [pull_request]
          secret: ${ROUTE_SECRET}
          prompt: "Review #{number} by {pull_request.user.login}: {script_output}"
          skills: [code-review]
          filters:
            - field: pull_request.user.login
              in_file: ~/.hermes/lists/reviewers.txt
          script: label.sh
          deliver: log
          toolsets: [web]
        nightly:
          cron_job: 4f2a
`;

const HERMES_SUBSCRIPTIONS = {
  pushes: {
    description: 'Agent-created subscription: pushes',
    events: ['push'],
    secret: SUBSCRIPTION_SECRET,
    prompt: 'Push to {ref}',
    skills: [],
    deliver: 'log',
    profile: 'default',
    created_at: '2026-11-01T10:00:00Z',
  },
};

/** The gateway's own config before the import: a comment and a route that must both stay. */
const EXISTING_CONFIG = `# my gateway: keep this comment
platforms:
  webhook:
    extra:
      host: 127.0.0.1
      port: 0
      routes:
        mine:
          secret: mine-secret-abcdefghij
          prompt: mine
`;

let hermesHome: string;
let home: string;
let imported: CliResult;
let gateway: StartedGateway;

function writeHermesHome(root: string): void {
  fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
  fs.mkdirSync(path.join(root, 'lists'), { recursive: true });
  fs.mkdirSync(path.join(root, 'skills', 'github', 'code-review'), { recursive: true });
  fs.writeFileSync(path.join(root, 'config.yaml'), HERMES_CONFIG);
  fs.writeFileSync(
    path.join(root, 'webhook_subscriptions.json'),
    JSON.stringify(HERMES_SUBSCRIPTIONS, null, 2),
    { mode: 0o600 },
  );
  fs.writeFileSync(path.join(root, 'lists', 'reviewers.txt'), 'octocat\nhubot\n');
  // A Hermes script: prints text, which the template reads as {script_output}.
  fs.writeFileSync(path.join(root, 'scripts', 'label.sh'), 'cat >/dev/null; echo "labelled"\n');
  fs.writeFileSync(
    path.join(root, 'skills', 'github', 'code-review', 'SKILL.md'),
    '---\nname: code-review\ndescription: review a pull request\n---\nBe brief.\n',
  );
}

function signedPost(route: string, event: string, payload: unknown, secret: string) {
  const body = JSON.stringify(payload);
  return post(`${gateway.url}/webhooks/${route}`, body, {
    'Content-Type': 'application/json',
    'X-GitHub-Event': event,
    'X-Hub-Signature-256': signForge(body, secret),
    'X-GitHub-Delivery': newDeliveryId(),
  });
}

beforeAll(async () => {
  hermesHome = path.join(makeHome(), '.hermes');
  writeHermesHome(hermesHome);
  home = makeHome();
  fs.writeFileSync(path.join(home, 'config.yaml'), EXISTING_CONFIG);
  imported = await runCli([
    'import',
    'hermes',
    path.join(hermesHome, 'config.yaml'),
    path.join(hermesHome, 'webhook_subscriptions.json'),
    '--home',
    home,
  ]);
  gateway = await startGateway({ home, env: { HERMES_GLOBAL_SECRET: 'global-secret-abcdefgh' } });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  cleanupHomes();
});

describe('import hermes: the report', () => {
  it('exits 0 and sums up what it wrote', () => {
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `Imported 1 route and 1 subscription into ${path.join(home, 'config.yaml')}, and copied 3 files.`,
    );
  });

  it('names each key with no equivalent, and what to do instead', () => {
    expect(imported.stdout).toMatch(
      /config\.yaml: platforms\.webhook\.extra\.routes\.nightly\.cron_job\n\s+→ .*cron job.*not imported/,
    );
    expect(imported.stdout).toMatch(
      /config\.yaml: platforms\.webhook\.extra\.routes\.reviews\.toolsets\n\s+→ .*agent\.terminal/,
    );
    expect(imported.stdout).toMatch(
      /config\.yaml: model\n\s+→ .*agent\.model: anthropic\/claude-sonnet-4/,
    );
  });

  it('names the unset variable the gateway would stop on', () => {
    expect(imported.stdout).toContain('Before you start the gateway (1 problem):');
    expect(imported.stdout).toContain(
      'platforms.webhook.extra.secret: environment variable HERMES_GLOBAL_SECRET is not set',
    );
  });

  it('prints no secret', () => {
    expect(imported.stdout).not.toContain(ROUTE_SECRET);
    expect(imported.stdout).not.toContain(SUBSCRIPTION_SECRET);
  });
});

describe('import hermes: the home it writes', () => {
  it('keeps the config’s comment and its own route, and adds Hermes’ route with paths made local', () => {
    const text = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    expect(text).toContain('# my gateway: keep this comment');
    const config = parseYaml(text) as {
      platforms: { webhook: { extra: { routes: Record<string, Record<string, unknown>> } } };
    };
    const routes = config.platforms.webhook.extra.routes;
    expect(Object.keys(routes).sort()).toEqual(['mine', 'reviews']);
    expect(routes.reviews).toMatchObject({
      script: 'label.sh',
      script_timeout_seconds: 15,
      filters: [{ field: 'pull_request.user.login', in_file: 'lists/reviewers.txt' }],
    });
    expect(routes.reviews).not.toHaveProperty('toolsets');
  });

  it('writes config.yaml readable by its owner only, since it now holds a route secret', () => {
    expect(fs.statSync(path.join(home, 'config.yaml')).mode & 0o777).toBe(0o600);
  });

  it('copies the script, the list and the skill (out of its category folder)', () => {
    expect(fs.readFileSync(path.join(home, 'lists', 'reviewers.txt'), 'utf8')).toContain('octocat');
    expect(fs.existsSync(path.join(home, 'scripts', 'label.sh'))).toBe(true);
    expect(fs.existsSync(path.join(home, 'skills', 'code-review', 'SKILL.md'))).toBe(true);
  });

  it('stores the subscription with its secret, as webhook list shows it', async () => {
    const listed = await runCli(['webhook', 'list', '--home', home, '--json'], {
      env: { HERMES_GLOBAL_SECRET: 'global-secret-abcdefgh' },
    });
    expect(listed.code, listed.stderr).toBe(0);
    const subscriptions = JSON.parse(listed.stdout) as { name: string; events: string[] }[];
    expect(subscriptions.map(({ name, events }) => ({ name, events }))).toEqual([
      { name: 'pushes', events: ['push'] },
    ]);
    expect(listed.stdout).not.toContain(SUBSCRIPTION_SECRET);
  });
});

describe('import hermes: the gateway runs the imported routes', () => {
  it('a reviewer in the list: signed with the route’s secret, the script runs, the prompt renders', async () => {
    const sent = await signedPost(
      'reviews',
      'pull_request',
      { action: 'opened', number: 7, pull_request: { user: { login: 'octocat' } } },
      ROUTE_SECRET,
    );
    expect(sent.status, sent.text).toBe(202);
    const row = await finishedRow(home, String(sent.body.delivery_id));
    expect(row.status).toBe('delivered');
    expect(row.answer).toContain('Review #7 by octocat: labelled');
  });

  it('someone not in the list is filtered out, as in Hermes', async () => {
    const sent = await signedPost(
      'reviews',
      'pull_request',
      { action: 'opened', number: 8, pull_request: { user: { login: 'mallory' } } },
      ROUTE_SECRET,
    );
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'ignored', reason: 'filter' });
  });

  it('the subscription answers to its own secret', async () => {
    const wrong = await signedPost('pushes', 'push', { ref: 'refs/heads/main' }, ROUTE_SECRET);
    expect(wrong.status).toBe(401);
    const sent = await signedPost(
      'pushes',
      'push',
      { ref: 'refs/heads/main' },
      SUBSCRIPTION_SECRET,
    );
    expect(sent.status, sent.text).toBe(202);
    const row = await finishedRow(home, String(sent.body.delivery_id));
    expect(row.answer).toContain('Push to refs/heads/main');
  });
});

describe('import hermes: bad input', () => {
  it('a missing file is one line naming it, exit 2, and nothing written', async () => {
    const empty = makeHome();
    const result = await runCli([
      'import',
      'hermes',
      path.join(empty, 'nope.yaml'),
      '--home',
      empty,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path.join(empty, 'nope.yaml')}: cannot read it (ENOENT)`);
    expect(fs.existsSync(path.join(empty, 'config.yaml'))).toBe(false);
  });

  it('a key of the wrong type names its path', async () => {
    const dir = makeHome();
    const file = path.join(dir, 'config.yaml');
    fs.writeFileSync(
      file,
      'platforms:\n  webhook:\n    extra:\n      routes:\n        a:\n          deliver: 5\n',
    );
    const result = await runCli(['import', 'hermes', file, '--home', makeHome()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('platforms.webhook.extra.routes.a.deliver');
  });

  it('--dry-run reports and writes nothing', async () => {
    const target = makeHome();
    const result = await runCli([
      'import',
      'hermes',
      path.join(hermesHome, 'config.yaml'),
      '--home',
      target,
      '--dry-run',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Would import 1 route and 0 subscriptions');
    expect(result.stdout).toContain('Dry run: nothing was written.');
    expect(fs.readdirSync(target)).toEqual([]);
  });
});
