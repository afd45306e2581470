import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { routeSchema } from './config/schema.js';
import {
  scriptCommand,
  scriptOutputExcerpt,
  scriptProblems,
  scriptVerdict,
} from './route-script.js';

const PAYLOAD = { id: 7, action: 'opened' };

describe('scriptVerdict', () => {
  it('takes a JSON object as the new payload', () => {
    expect(scriptVerdict('{"a": 1}\n', PAYLOAD)).toEqual({ kind: 'payload', payload: { a: 1 } });
  });

  it.each(['[1, 2, 3]', '42', 'true', 'null', '"done"', 'hello'])(
    'adds other output (%s) to the payload as script_output',
    (output) => {
      expect(scriptVerdict(`${output}\n`, PAYLOAD)).toEqual({
        kind: 'payload',
        payload: { ...PAYLOAD, script_output: output },
      });
    },
  );

  it.each(['', '  \n', '[SILENT]\n', '{"[SILENT]": true}', '{"__hermes_ignore__": true}'])(
    'drops the delivery on %j',
    (output) => {
      expect(scriptVerdict(output, PAYLOAD)).toEqual({ kind: 'skip' });
    },
  );
});

describe('scriptOutputExcerpt', () => {
  it('keeps 200 characters with the secrets and tokens replaced', () => {
    const token = `ghp_${'x'.repeat(36)}`;
    const excerpt = scriptOutputExcerpt(`used s3cret-value and ${token}\n${'y'.repeat(400)}`, [
      's3cret-value',
    ]);
    expect(excerpt).not.toContain('s3cret-value');
    expect(excerpt).not.toContain(token);
    expect(excerpt.startsWith('used **** and ****')).toBe(true);
    expect(excerpt).toHaveLength(201);
  });
});

describe('where a script may live', () => {
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
  });
  function home(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-script-'));
    homes.push(dir);
    fs.mkdirSync(path.join(dir, 'scripts'));
    for (const name of ['a.sh', 'b.py', 'c']) fs.writeFileSync(path.join(dir, 'scripts', name), '');
    fs.writeFileSync(path.join(dir, 'outside.py'), '');
    return dir;
  }

  it('picks the interpreter by extension, for both forms', () => {
    const dir = home();
    const real = fs.realpathSync(path.join(dir, 'scripts'));
    expect(scriptCommand(dir, 'a.sh')).toMatchObject({ program: 'bash', args: [`${real}/a.sh`] });
    expect(scriptCommand(dir, ['b.py', '-x'])).toMatchObject({
      program: 'python3',
      args: [`${real}/b.py`, '-x'],
    });
    expect(scriptCommand(dir, 'c')).toMatchObject({ program: `${real}/c`, args: [] });
  });

  it('names the key of a script outside the folder or missing', () => {
    const dir = home();
    fs.symlinkSync(path.join(dir, 'outside.py'), path.join(dir, 'scripts', 'link.py'));
    const routes = {
      up: routeSchema.parse({ script: '../outside.py' }),
      link: routeSchema.parse({ script: 'link.py' }),
      gone: routeSchema.parse({ script: ['gone.py'] }),
      fine: routeSchema.parse({ script: 'b.py' }),
    };
    expect(scriptProblems(routes, dir).map((problem) => problem.path)).toEqual([
      'platforms.webhook.extra.routes.up.script',
      'platforms.webhook.extra.routes.link.script',
      'platforms.webhook.extra.routes.gone.script.0',
    ]);
  });
});
