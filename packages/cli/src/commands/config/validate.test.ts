import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfigFile } from './validate.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

function homeWith(configText?: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-validate-'));
  homes.push(home);
  if (configText !== undefined) fs.writeFileSync(path.join(home, 'config.yaml'), configText);
  return home;
}

describe('validateConfigFile', () => {
  it('passes a good file and returns its routes', async () => {
    const home = homeWith(
      'platforms:\n  webhook:\n    extra:\n      secret: s3cret\n      routes:\n        a: {}\n',
    );
    const result = await validateConfigFile({ home });
    expect(result.problems).toEqual([]);
    expect(result.exists).toBe(true);
    expect(Object.keys(result.config?.platforms.webhook.extra.routes ?? {})).toEqual(['a']);
  });

  it('checks the embedded defaults when there is no file', async () => {
    const result = await validateConfigFile({ home: homeWith() });
    expect(result).toMatchObject({ exists: false, problems: [] });
  });

  it('reports schema problems with their key paths', async () => {
    const home = homeWith(
      'platforms:\n  webhook:\n    extra:\n      port: eighty\n      rate_limt: 5\n',
    );
    const paths = (await validateConfigFile({ home })).problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['platforms.webhook.extra.port', 'platforms.webhook.extra.rate_limt']),
    );
  });

  it('reports what only the startup checks find', async () => {
    const home = homeWith('platforms:\n  webhook:\n    extra:\n      routes:\n        a: {}\n');
    const { problems } = await validateConfigFile({ home });
    expect(problems.map((p) => p.path)).toEqual(['platforms.webhook.extra.routes.a']);
  });

  it('reports a missing --config file', async () => {
    const home = homeWith();
    const { problems } = await validateConfigFile({ home, config: path.join(home, 'nope.yaml') });
    expect(problems[0]?.message).toBe('config file not found');
  });

  it('reports an unset environment variable with its key', async () => {
    const home = homeWith(
      'platforms:\n  webhook:\n    extra:\n      secret: ${WG_VALIDATE_UNSET}\n',
    );
    delete process.env.WG_VALIDATE_UNSET;
    const { problems } = await validateConfigFile({ home });
    expect(problems).toEqual([
      {
        path: 'platforms.webhook.extra.secret',
        message: 'environment variable WG_VALIDATE_UNSET is not set',
      },
    ]);
  });
});
