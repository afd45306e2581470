/**
 * No secret in any log: every shape in which a secret can reach a log line (a secret key at the
 * top, in a settings-like object one level down, a request header, a child logger's bindings)
 * is censored in the file the gateway writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from './logger.js';

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
});

/** The lines `write` logs, as written to `<home>/logs/gateway.log`, and the file's text. */
async function logged(
  write: (log: Logger) => void,
): Promise<{ text: string; lines: Record<string, unknown>[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-logger-'));
  homes.push(home);
  const logger = createLogger({ home, level: 'trace', tty: false });
  await logger.ready;
  write(logger.log);
  logger.flush();
  const text = fs.readFileSync(path.join(home, 'logs', 'gateway.log'), 'utf8');
  const lines = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { text, lines };
}

const SECRET = 'sekret-value-5f2b9c';

/** Keys whose value is a secret wherever a log object has them. */
const SECRET_KEYS = [
  'secret',
  'token',
  'auth_token',
  'api_key',
  'password',
  // A GitHub App's key and JWT, and a delivery's installation token by the variables it goes as.
  'private_key',
  'jwt',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITLAB_TOKEN',
];

/** Request headers that carry a credential or a signature made with one. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-forge-signature-256',
  'x-hub-signature-256',
  'x-hub-signature',
  'x-altforge-token',
  'x-gitlab-token',
  'webhook-signature',
  'svix-signature',
  'x-gitea-signature',
  'x-forgejo-signature',
  'linear-signature',
  'x-webhook-signature-v2',
];

/** Objects that hold settings or credentials, logged whole by a plugin or an error path. */
const CONTAINERS = ['config', 'settings', 'options', 'extra', 'agent', 'credentials', 'app', 'env'];

describe('createLogger redaction', () => {
  it.each(SECRET_KEYS)('censors a top-level %s', async (key) => {
    const { text, lines } = await logged((log) => log.info({ [key]: SECRET, kept: 1 }, 'line'));
    expect(text).not.toContain(SECRET);
    expect(lines[0]).toMatchObject({ [key]: '****', kept: 1, msg: 'line' });
  });

  it.each(SECRET_HEADERS)('censors the %s request header', async (header) => {
    const { text, lines } = await logged((log) =>
      log.info({ headers: { [header]: SECRET, 'x-github-event': 'push' } }, 'request'),
    );
    expect(text).not.toContain(SECRET);
    expect(lines[0]?.headers).toEqual({ [header]: '****', 'x-github-event': 'push' });
  });

  it.each(CONTAINERS.flatMap((container) => SECRET_KEYS.map((key) => [container, key])))(
    'censors %s.%s',
    async (container, key) => {
      const { text, lines } = await logged((log) =>
        log.warn({ [container]: { [key]: SECRET, name: 'kept' } }, 'settings'),
      );
      expect(text).not.toContain(SECRET);
      expect(lines[0]?.[container]).toEqual({ [key]: '****', name: 'kept' });
    },
  );

  it("censors a child logger's bindings and the lines of its children", async () => {
    const { text, lines } = await logged((log) => {
      const child = log.child({ token: SECRET, headers: { authorization: `Bearer ${SECRET}` } });
      child.info({ api_key: SECRET }, 'from the child');
      child.child({ settings: { secret: SECRET } }).info('from the grandchild');
    });
    expect(text).not.toContain(SECRET);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ token: '****', api_key: '****', msg: 'from the child' });
    expect(lines[1]).toMatchObject({ settings: { secret: '****' }, msg: 'from the grandchild' });
  });

  it('leaves what is not a secret as it is', async () => {
    const { lines } = await logged((log) =>
      log
        .child({ route: 'bench', delivery_id: 'd-1' })
        .info({ target: 'log', answer: 'Review PR #7', attempt: 1 }, 'agent answer'),
    );
    expect(lines[0]).toMatchObject({
      route: 'bench',
      delivery_id: 'd-1',
      target: 'log',
      answer: 'Review PR #7',
      attempt: 1,
      msg: 'agent answer',
    });
  });
});
