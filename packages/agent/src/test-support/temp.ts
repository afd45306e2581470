/** Temporary directories and executable scripts for tests; each is removed by `cleanup`. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A fresh directory under the OS temp dir. */
export async function tempDir(prefix = 'wg-agent-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes an executable shell script `dir/name`. */
export async function writeScript(dir: string, name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** Removes every directory `tempDir` made. */
export async function cleanup(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
}
