/** The per-delivery working directory the `local` terminal runs commands in. */
import fs from 'node:fs/promises';
import path from 'node:path';

/** `<home>/work/<journal id>`; anything but `[A-Za-z0-9._-]` in the id becomes `_`. */
export function workDirPath(home: string, journalId: string): string {
  const safe = journalId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return path.join(home, 'work', safe || '_');
}

/** Creates the work directory (and its parents) if needed and returns its path. */
export async function ensureWorkDir(home: string, journalId: string): Promise<string> {
  const dir = workDirPath(home, journalId);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}
