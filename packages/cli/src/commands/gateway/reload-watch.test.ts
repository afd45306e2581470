import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { concernsFile, watchConfigFile, type ConfigWatcher } from './reload-watch.js';

const dirs: string[] = [];
const watchers: ConfigWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function configFile(text = 'a: 1\n'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-watch-'));
  dirs.push(dir);
  const file = path.join(dir, 'config.yaml');
  fs.writeFileSync(file, text);
  return file;
}

/** Watches `file`, counting changes; `next()` resolves at the next change or skipped save. */
function watch(file: string) {
  const seen: ('changed' | 'unchanged')[] = [];
  let wake: () => void = () => undefined;
  const record = (what: 'changed' | 'unchanged') => () => {
    seen.push(what);
    wake();
  };
  watchers.push(
    watchConfigFile(file, record('changed'), { debounceMs: 30, onUnchanged: record('unchanged') }),
  );
  return {
    seen,
    next: () => new Promise<void>((resolve) => (wake = resolve)),
  };
}

describe('watchConfigFile', () => {
  it('reports a write to the file', async () => {
    const file = configFile();
    const watched = watch(file);
    const next = watched.next();
    fs.writeFileSync(file, 'a: 2\n');
    await next;
    expect(watched.seen).toEqual(['changed']);
  });

  it('sees an editor that saves by renaming a new file over the old one', async () => {
    const file = configFile();
    const watched = watch(file);
    const next = watched.next();
    const temporary = path.join(path.dirname(file), '.config.yaml.swp');
    fs.writeFileSync(temporary, 'a: 3\n');
    fs.renameSync(temporary, file);
    await next;
    expect(watched.seen).toEqual(['changed']);
    // the watch survives the replaced inode
    const again = watched.next();
    fs.writeFileSync(file, 'a: 4\n');
    await again;
    expect(watched.seen).toEqual(['changed', 'changed']);
  });

  it('reports a burst of writes once', async () => {
    const file = configFile();
    const watched = watch(file);
    const next = watched.next();
    for (let i = 0; i < 5; i++) fs.writeFileSync(file, `a: ${10 + i}\n`);
    await next;
    const after = watched.next();
    fs.writeFileSync(file, 'b: 1\n');
    await after;
    expect(watched.seen).toEqual(['changed', 'changed']);
  });

  it('does not report a save that leaves the text as it was', async () => {
    const file = configFile('same: true\n');
    const watched = watch(file);
    const next = watched.next();
    fs.writeFileSync(file, 'same: true\n');
    await next;
    expect(watched.seen).toEqual(['unchanged']);
  });

  it('ignores other files in the directory', async () => {
    const file = configFile();
    const watched = watch(file);
    fs.writeFileSync(path.join(path.dirname(file), 'state.db'), 'x');
    const next = watched.next();
    fs.writeFileSync(file, 'a: 5\n');
    await next;
    expect(watched.seen).toEqual(['changed']);
  });
});

describe('concernsFile', () => {
  it('matches the file name, and an event without a name', () => {
    expect(concernsFile('config.yaml', 'config.yaml')).toBe(true);
    expect(concernsFile(null, 'config.yaml')).toBe(true);
    expect(concernsFile('config.yaml~', 'config.yaml')).toBe(false);
    expect(concernsFile('state.db-wal', 'config.yaml')).toBe(false);
  });
});
