/**
 * The GitHub App's private key, read and checked where the config names it: a missing,
 * unreadable or malformed key is a problem with the key path; a key file others can read is a
 * warning (anyone on the machine could then act as the App).
 */
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, type ConfigProblem, type Logger } from '@webhook-gateway/core';
import type { ForgeAppSettings } from './settings.js';

const KEY_FILE = 'platforms.forge.app.private_key_file';
const KEY = 'platforms.forge.app.private_key';

export type AppKeyResult =
  { ok: true; pem: string; warnings: ConfigProblem[] } | { ok: false; problem: ConfigProblem };

/** `~/x` as a path in the home directory; other paths relative to `base` (the gateway home). */
function expandKeyPath(file: string, base: string): string {
  if (file === '~' || file.startsWith('~/')) return path.join(os.homedir(), file.slice(1));
  return path.resolve(base, file);
}

/** A PEM private key (PKCS#1 or PKCS#8) that node can sign with, or why not. */
function malformed(pem: string): string | undefined {
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(pem)) {
    return 'is not a PEM private key (the .pem file the App’s settings page downloads)';
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') return 'is not an RSA key (GitHub Apps sign with RS256)';
  } catch {
    return 'is a malformed PEM private key';
  }
  return undefined;
}

/** Reads and checks the App's key; `home` resolves a relative `private_key_file`. */
export function readAppKey(app: ForgeAppSettings, home: string): AppKeyResult {
  if (app.private_key !== undefined) {
    // Keys set through an environment variable often carry escaped line breaks.
    const pem = app.private_key.replace(/\\n/g, '\n');
    const why = malformed(pem);
    return why
      ? { ok: false, problem: { path: KEY, message: `the App's private key ${why}` } }
      : { ok: true, pem, warnings: [] };
  }
  const file = expandKeyPath(app.private_key_file ?? '', home);
  let pem: string;
  let mode: number;
  try {
    pem = fs.readFileSync(file, 'utf8');
    mode = fs.statSync(file).mode;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read by the gateway (permission denied)'
          : `cannot be read (${code ?? String(error)})`;
    return { ok: false, problem: { path: KEY_FILE, message: `${file} ${why}` } };
  }
  const why = malformed(pem);
  if (why) return { ok: false, problem: { path: KEY_FILE, message: `${file} ${why}` } };
  const warnings: ConfigProblem[] =
    (mode & 0o077) !== 0
      ? [
          {
            path: KEY_FILE,
            message: `${file} can be read by other users (mode ${(mode & 0o777).toString(8)}); run chmod 600 ${file}`,
          },
        ]
      : [];
  return { ok: true, pem, warnings };
}

/**
 * The start-time check: a bad key is a `ConfigError` naming its key path; a key file others can
 * read is logged as a warning.
 */
export function checkAppKey(
  settings: { app?: ForgeAppSettings | undefined },
  home: string,
  log: Logger,
): void {
  if (!settings.app) return;
  const key = readAppKey(settings.app, home);
  if (!key.ok) throw new ConfigError([key.problem]);
  for (const warning of key.warnings) log.warn({ key_path: warning.path }, warning.message);
}
