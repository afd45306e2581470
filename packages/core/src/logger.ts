/** pino logging: JSON lines in `<home>/logs/gateway.log`, pretty on a TTY as well. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pino from 'pino';
import type PinoPretty from 'pino-pretty';
import { SECRET_KEY_NAMES } from './redaction.js';

export type Logger = pino.Logger;
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/** Keys whose values are secrets (`redaction.ts`): censored at the top of a line or one level down in a container. */
const SECRET_KEYS = SECRET_KEY_NAMES;
/** Objects that hold settings or credentials when a plugin or an error path logs them whole. */
const SECRET_CONTAINERS = [
  'config',
  'settings',
  'options',
  'extra',
  'agent',
  'credentials',
  'app',
  'env',
];
/** Request headers that carry a credential or a signature made with one. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-forge-signature-256',
  'x-hub-signature-256',
  'x-hub-signature',
  'x-altforge-token',
  'x-gitlab-token',
  'webhook-signature',
  'svix-signature',
  'x-gitea-signature',
  'x-forgejo-signature',
  'linear-signature',
  'x-webhook-signature-v2',
];

/**
 * Exact paths only. A wildcard (`*.secret`) makes pino send every value of every line, and the
 * message, through @pinojs/redact (a clone, each path parsed again, then JSON.stringify); an exact
 * path costs a line only when the line has that top-level key.
 */
const REDACT = [
  ...SECRET_KEYS,
  ...SECRET_CONTAINERS.flatMap((container) => SECRET_KEYS.map((key) => `${container}.${key}`)),
  ...SECRET_HEADERS.map((header) => `headers["${header}"]`),
];

export interface GatewayLogger {
  log: Logger;
  /** Resolves once the log file is open (exiting before that makes pino throw). */
  ready: Promise<void>;
  /** Writes out what is buffered; call before exit. */
  flush(): void;
}

/** One write to the log file per this many bytes of lines (each write costs the event loop). */
const LOG_WRITE_BYTES = 4096;
/** The longest a line waits in memory before it is written. */
const LOG_FLUSH_MS = 100;

/** pino-pretty, loaded only for a TTY: a service's start-up does not pay for it. */
function loadPretty(): typeof PinoPretty {
  return createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
}

/**
 * The gateway's logger. The file always gets JSON; a TTY also gets readable lines, and a non-TTY
 * stdout is left to the startup line and command output.
 */
export function createLogger(options: {
  home: string;
  level: LogLevel;
  tty?: boolean;
}): GatewayLogger {
  const dir = path.join(options.home, 'logs');
  fs.mkdirSync(dir, { recursive: true });
  const file = pino.destination({
    dest: path.join(dir, 'gateway.log'),
    // Written on this thread when LOG_WRITE_BYTES have gathered: sonic-boom appends each line to
    // one string and measures its bytes at every line, so lines that pile up behind an
    // asynchronous write cost more the longer it takes (up to 16 KB scanned per line). A
    // synchronous write keeps what a line scans under LOG_WRITE_BYTES, and skips the thread hop.
    sync: true,
    mkdir: true,
    // Lines gather up to LOG_WRITE_BYTES per write (a delivery logs four), written at least every
    // LOG_FLUSH_MS; pino writes out the rest at exit, the gateway at its stop.
    minLength: LOG_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  const streams: pino.StreamEntry[] = [
    { level: options.level === 'silent' ? 'fatal' : options.level, stream: file },
  ];
  if (options.tty ?? process.stdout.isTTY) {
    streams.push({
      level: options.level === 'silent' ? 'fatal' : options.level,
      stream: loadPretty()({ destination: 1, sync: true }),
    });
  }
  const log = pino(
    { level: options.level, redact: { paths: REDACT, censor: '****' }, base: { pid: process.pid } },
    // One destination (no TTY) is written directly: multistream costs every line a fan-out.
    streams.length === 1 ? file : pino.multistream(streams),
  );
  const ready = new Promise<void>((resolve, reject) => {
    file.once('ready', () => resolve());
    file.once('error', (error: Error) => reject(error));
  });
  return {
    log,
    ready,
    flush: () => {
      try {
        file.flushSync();
      } catch {
        // not ready yet (nothing written): nothing to flush
      }
    },
  };
}

/** A logger that drops everything, for tests and commands that do not log. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** A warning a plugin logged while it was set up, for `config validate` to print. */
export interface LoggedWarning {
  message: string;
  /** The config key it is about, when the plugin named one (`key_path`). */
  keyPath?: string;
}

/**
 * A logger that keeps its warnings (and worse) in memory and drops the rest: a one-off check
 * shows what a gateway would log at start. Redacted as the gateway's own logger is.
 */
export function warningCollector(): { log: Logger; warnings(): LoggedWarning[] } {
  const warnings: LoggedWarning[] = [];
  const log = pino(
    { level: 'warn', redact: { paths: REDACT, censor: '****' } },
    {
      write(line: string) {
        const { msg, key_path: keyPath } = JSON.parse(line) as {
          msg?: unknown;
          key_path?: unknown;
        };
        warnings.push({
          message: typeof msg === 'string' ? msg : '',
          ...(typeof keyPath === 'string' ? { keyPath } : {}),
        });
      },
    },
  );
  return { log, warnings: () => [...warnings] };
}

/** Shows at most the last four characters of a secret. */
export function maskSecret(secret: string): string {
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}
