import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigExistsError, writeInitFiles } from './files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function newHome(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-init-'));
  dirs.push(dir);
  return path.join(dir, 'home');
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('writeInitFiles', () => {
  it('writes config.yaml readable by its owner only, the schema and an example skill', () => {
    const home = newHome();
    const files = writeInitFiles({ home, secret: 'generated', force: false });
    expect(files.map((f) => path.relative(home, f.file))).toEqual([
      'config.yaml',
      'config.schema.json',
      path.join('skills', 'code-review', 'SKILL.md'),
    ]);
    expect(mode(path.join(home, 'config.yaml'))).toBe(0o600);
    expect(mode(home)).toBe(0o700);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toContain('"generated"');
    const schema = JSON.parse(fs.readFileSync(path.join(home, 'config.schema.json'), 'utf8')) as {
      properties: Record<string, unknown>;
    };
    expect(Object.keys(schema.properties)).toEqual([
      'plugins',
      'store',
      'agent',
      'review',
      'hygiene',
      'observability',
      'platforms',
    ]);
    expect(fs.readdirSync(home).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to overwrite an existing config.yaml and leaves it as it was', () => {
    const home = newHome();
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, 'config.yaml'), 'mine: true\n');
    expect(() => writeInitFiles({ home, secret: 's', force: false })).toThrow(ConfigExistsError);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toBe('mine: true\n');
    expect(fs.existsSync(path.join(home, 'skills'))).toBe(false);
  });

  it('overwrites with force, tightening the mode, but keeps an edited skill', () => {
    const home = newHome();
    writeInitFiles({ home, secret: 'first', force: false });
    const skill = path.join(home, 'skills', 'code-review', 'SKILL.md');
    fs.writeFileSync(skill, '# my edits\n');
    fs.chmodSync(path.join(home, 'config.yaml'), 0o644);
    const files = writeInitFiles({ home, secret: 'second', force: true });
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toContain('"second"');
    expect(mode(path.join(home, 'config.yaml'))).toBe(0o600);
    expect(fs.readFileSync(skill, 'utf8')).toBe('# my edits\n');
    expect(files.at(-1)?.written).toBe(false);
  });
});
