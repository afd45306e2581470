/** The per-delivery working directory the `local` terminal runs commands in. */
import fs from 'node:fs/promises';
import path from 'node:path';

/** `<home>/work/<journal id>`; anything but `[A-Za-z0-9._-]` in the id becomes `_`. */
function workDirPath(home: string, journalId: string): string {
  const safe = journalId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return path.join(home, 'work', safe || '_');
}

/** Creates the work directory (and its parents) if needed and returns its path. */
export async function ensureWorkDir(home: string, journalId: string): Promise<string> {
  const dir = workDirPath(home, journalId);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/**
 * Removes work directories not touched for `maxAgeMs` (they outlive their journal rows otherwise).
 * Returns how many were removed; a missing `<home>/work` is nothing to do.
 */
export async function pruneWorkDirs(
  home: string,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  const root = path.join(home, 'work');
  let entries: string[];
  try {
    entries = await fs.readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const dir = path.join(root, entry);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat?.isDirectory() && now - stat.mtimeMs > maxAgeMs) {
      await fs.rm(dir, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
