/**
 * Watches the config file for changes. It watches the file's directory, not the file: editors
 * that save by writing a new file and renaming it over the old one replace the watched inode.
 * Bursts of events are debounced, and a save that leaves the text as it was is no change.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How long the file must be quiet before a change counts (editors write in several steps). */
const DEFAULT_DEBOUNCE_MS = 200;

export interface WatchOptions {
  debounceMs?: number;
  /** The directory watch failed (e.g. it was removed); the watcher has stopped. */
  onError?: (error: Error) => void;
  /** Events came, but the text is what it was (touch, chmod, a save without edits). */
  onUnchanged?: () => void;
}

export interface ConfigWatcher {
  close(): void;
}

/** True when an event of the directory watch concerns the config file (unknown names count). */
export function concernsFile(filename: string | null, base: string): boolean {
  return filename === null || filename === base;
}

/** The file's text, or null when it does not exist (mid-rename, or deleted). */
function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Calls `onChange` once the file's text differs from the text seen before, after events have been
 * quiet for `debounceMs`. A deleted file is a change too (the reload then reports it missing).
 */
export function watchConfigFile(
  file: string,
  onChange: () => void,
  options: WatchOptions = {},
): ConfigWatcher {
  const base = path.basename(file);
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let seen = readText(file);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const settle = () => {
    timer = undefined;
    if (closed) return;
    const text = readText(file);
    if (text === seen) {
      options.onUnchanged?.();
      return;
    }
    seen = text;
    onChange();
  };

  const watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, filename) => {
    if (closed || !concernsFile(filename, base)) return;
    clearTimeout(timer);
    timer = setTimeout(settle, debounceMs);
  });
  watcher.on('error', (error) => {
    clearTimeout(timer);
    closed = true;
    watcher.close();
    options.onError?.(error);
  });

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
    },
  };
}
