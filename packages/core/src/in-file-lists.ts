/**
 * The lists `in_file` filters read, kept in memory: a file is read again only when its mtime or
 * size changed, and looked at no more than once a second, never on every request.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** How long a file is trusted before its mtime is looked at again. */
const RECHECK_MS = 1_000;

interface Entry {
  values: readonly unknown[];
  mtimeMs: number;
  size: number;
  checkedAt: number;
}

/**
 * A file's values: a JSON list as it is, a JSON object's keys, another JSON value alone, or,
 * when the text is not JSON, one value per non-empty line (as Hermes reads them).
 */
export function parseInFile(text: string): unknown[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }
  if (Array.isArray(data)) return data;
  if (data !== null && typeof data === 'object') return Object.keys(data);
  return [data];
}

export class InFileLists {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly home: string,
    private readonly onUnreadable: (file: string, reason: string) => void = () => {},
  ) {}

  /** The file's absolute path. */
  fileOf(relativePath: string): string {
    return path.join(this.home, relativePath);
  }

  /** Brings the given files up to date (those not checked in the last second). */
  async refresh(relativePaths: readonly string[], now = Date.now()): Promise<void> {
    await Promise.all(relativePaths.map((relative) => this.refreshOne(relative, now)));
  }

  /** The values last read from the file; empty when it was missing or unreadable. */
  values(relativePath: string): readonly unknown[] {
    return this.entries.get(relativePath)?.values ?? [];
  }

  private async refreshOne(relative: string, now: number): Promise<void> {
    const known = this.entries.get(relative);
    if (known && now - known.checkedAt < RECHECK_MS) return;
    const file = this.fileOf(relative);
    try {
      const stat = await fs.stat(file);
      if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) {
        known.checkedAt = now;
        return;
      }
      const values = parseInFile(await fs.readFile(file, 'utf8'));
      this.entries.set(relative, {
        values,
        mtimeMs: stat.mtimeMs,
        size: stat.size,
        checkedAt: now,
      });
    } catch (error) {
      if (!known || known.mtimeMs !== -1) this.onUnreadable(file, (error as Error).message);
      this.entries.set(relative, { values: [], mtimeMs: -1, size: -1, checkedAt: now });
    }
  }
}
