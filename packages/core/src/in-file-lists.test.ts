import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InFileLists, parseInFile } from './in-file-lists.js';

describe('parseInFile', () => {
  it('reads a JSON list, an object’s keys, one JSON value, or one value a line', () => {
    expect(parseInFile('["a", 1]')).toEqual(['a', 1]);
    expect(parseInFile('{"alice": true, "bob": false}')).toEqual(['alice', 'bob']);
    expect(parseInFile('42')).toEqual([42]);
    expect(parseInFile('alice\n\n  bob  \r\ncarol\n')).toEqual(['alice', 'bob', 'carol']);
  });
});

describe('InFileLists', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a file again when it changed, and not within a second of the last look', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'in-file-'));
    dirs.push(home);
    const file = path.join(home, 'users.txt');
    fs.writeFileSync(file, 'alice\n');
    const unreadable: string[] = [];
    const lists = new InFileLists(home, (name) => unreadable.push(name));
    await lists.refresh(['users.txt'], 1_000);
    expect(lists.values('users.txt')).toEqual(['alice']);

    fs.writeFileSync(file, 'alice\nbob\ncarol\n');
    await lists.refresh(['users.txt'], 1_500);
    expect(lists.values('users.txt')).toEqual(['alice']);
    await lists.refresh(['users.txt'], 2_100);
    expect(lists.values('users.txt')).toEqual(['alice', 'bob', 'carol']);

    fs.rmSync(file);
    await lists.refresh(['users.txt'], 3_200);
    expect(lists.values('users.txt')).toEqual([]);
    await lists.refresh(['users.txt'], 4_300);
    expect(unreadable).toEqual([file]);
  });
});
