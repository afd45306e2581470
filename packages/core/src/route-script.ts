/**
 * A route's `script` (Hermes' route scripts): a program under `<home>/scripts/` that gets the
 * payload on stdin before the render and may replace it, add to it, or drop the delivery. It runs
 * in the attempt, after the 202, so it can neither slow the receiver nor lose a delivery.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RouteConfig } from './config/schema.js';
import type { ConfigProblem } from './errors.js';
import { createRedactor } from './redaction.js';
import type { JsonObject } from './template.js';

/** Seconds a script may run when the route sets no `script_timeout_s` (as Hermes). */
const DEFAULT_SCRIPT_TIMEOUT_S = 30;

/** The marker a script prints (alone, or as `{"[SILENT]": true}`) to drop a delivery. */
const SILENT_MARKER = '[SILENT]';

/** How many characters of a failed script's output the journal keeps. */
const OUTPUT_EXCERPT_CHARS = 200;

/** The folder route scripts live in. */
function scriptsFolder(home: string): string {
  return path.join(home, 'scripts');
}

/** A script resolved to what execa runs: a program and its arguments. */
export interface ScriptCommand {
  program: string;
  args: string[];
  /** The script's file, under the scripts folder. */
  file: string;
}

/**
 * Where a script path points: relative paths are inside the scripts folder, absolute ones must
 * be. Symlinks are followed, so a link cannot lead out of the folder. An error message otherwise.
 */
function resolveScriptFile(home: string, script: string): { file: string } | { error: string } {
  const folder = scriptsFolder(home);
  const candidate = path.resolve(folder, script);
  if (!existsSync(candidate))
    return { error: `script "${script}" does not exist (looked at ${candidate})` };
  const real = realpathSync(candidate);
  const realFolder = existsSync(folder) ? realpathSync(folder) : folder;
  const relative = path.relative(realFolder, real);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    return { error: `script "${script}" is outside ${folder}; put it in that folder` };
  }
  if (!statSync(real).isFile()) return { error: `script "${script}" is not a file (${real})` };
  return { file: real };
}

/**
 * The program and arguments a route's `script` runs: the file (Hermes' string form, or the argv
 * form's first item) picks its interpreter by extension, as Hermes does; the argv form's other
 * items are its arguments.
 */
export function scriptCommand(
  home: string,
  script: NonNullable<RouteConfig['script']>,
): ScriptCommand | { error: string } {
  const [first, ...rest] = typeof script === 'string' ? [script] : script;
  const resolved = resolveScriptFile(home, first ?? '');
  if ('error' in resolved) return resolved;
  const { file } = resolved;
  const extension = path.extname(file).toLowerCase();
  if (extension === '.sh' || extension === '.bash') {
    return { program: 'bash', args: [file, ...rest], file };
  }
  if (extension === '.py') return { program: 'python3', args: [file, ...rest], file };
  return { program: file, args: rest, file };
}

/** Every route whose script is missing or outside the scripts folder, with its key path. */
export function scriptProblems(
  routes: Readonly<Record<string, RouteConfig>>,
  home: string,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [name, route] of Object.entries(routes)) {
    if (route.script === undefined) continue;
    const command = scriptCommand(home, route.script);
    if ('error' in command) {
      const where = typeof route.script === 'string' ? 'script' : 'script.0';
      problems.push({
        path: `platforms.webhook.extra.routes.${name}.${where}`,
        message: `route "${name}": ${command.error}`,
      });
    }
  }
  return problems;
}

/** The seconds a route's script may run. */
function scriptTimeoutS(route: RouteConfig): number {
  return route.script_timeout_s ?? route.script_timeout_seconds ?? DEFAULT_SCRIPT_TIMEOUT_S;
}

/** What a script's output means for the delivery. */
export type ScriptVerdict =
  /** Go on with this payload: the script's JSON object, or the old one with `script_output`. */
  | { kind: 'payload'; payload: JsonObject }
  /** `[SILENT]`, empty output, or `{"[SILENT]": true}`: end the delivery as `skipped`. */
  | { kind: 'skip' };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a script's stdout as Hermes does: a JSON object replaces the payload; any other text
 * (JSON that is not an object included) rides along as `script_output`; `[SILENT]`, nothing, or
 * an object with `"[SILENT]": true` (or Hermes' `__hermes_ignore__`) drops the delivery.
 *
 * @example scriptVerdict('{"title":"short"}', { title: 'long' }) // payload { title: 'short' }
 */
export function scriptVerdict(stdout: string, payload: JsonObject): ScriptVerdict {
  const text = stdout.trim();
  if (text === '' || text === SILENT_MARKER) return { kind: 'skip' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isObject(parsed)) {
    if (parsed[SILENT_MARKER] === true || parsed.__hermes_ignore__ === true)
      return { kind: 'skip' };
    return { kind: 'payload', payload: parsed };
  }
  return { kind: 'payload', payload: { ...payload, script_output: text } };
}

/**
 * The first 200 characters of a failed script's output for the journal, with the route's
 * secrets and anything shaped like a token replaced by `****` (the shared `redaction.ts`).
 */
export function scriptOutputExcerpt(output: string, secrets: readonly string[]): string {
  const flat = output.replace(/\s+/g, ' ').trim();
  // Route secrets are known exactly: short ones count here too (a journal line, not free text).
  const { text } = createRedactor(secrets, 4).redact(flat, '****');
  return text.length > OUTPUT_EXCERPT_CHARS ? `${text.slice(0, OUTPUT_EXCERPT_CHARS)}…` : text;
}

export interface RunScriptRequest {
  home: string;
  route: string;
  routeConfig: RouteConfig & { script: NonNullable<RouteConfig['script']> };
  event: string;
  deliveryId: string;
  payload: JsonObject;
  /** Secrets to keep out of the journal if the script prints them. */
  secrets: readonly string[];
  signal: AbortSignal;
}

/**
 * Runs a route's script without a shell: the payload as JSON on stdin; the event, delivery id and
 * route in its environment (also under Hermes' `HERMES_WEBHOOK_*` names, so its scripts run as
 * they are). Throws on a non-zero exit or a timeout, with the output's start, redacted.
 */
export async function runRouteScript(request: RunScriptRequest): Promise<ScriptVerdict> {
  const command = scriptCommand(request.home, request.routeConfig.script);
  if ('error' in command) throw Object.assign(new Error(command.error), { retryable: false });
  const timeoutS = scriptTimeoutS(request.routeConfig);
  // Loaded on first use: a gateway whose routes have no script never loads it.
  const { execa } = await import('execa');
  const result = await execa(command.program, command.args, {
    input: JSON.stringify(request.payload),
    cwd: path.dirname(command.file),
    env: {
      WEBHOOK_ROUTE: request.route,
      WEBHOOK_EVENT: request.event,
      WEBHOOK_DELIVERY_ID: request.deliveryId,
      HERMES_WEBHOOK_ROUTE: request.route,
      HERMES_WEBHOOK_EVENT_TYPE: request.event,
      HERMES_WEBHOOK_DELIVERY_ID: request.deliveryId,
    },
    timeout: timeoutS * 1000,
    cancelSignal: request.signal,
    reject: false,
    all: true,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.failed) {
    const name = path.basename(command.file);
    const excerpt = scriptOutputExcerpt(String(result.all ?? ''), request.secrets);
    const how =
      result.code === 'ENOENT'
        ? `could not start: "${command.program}" was not found`
        : result.timedOut
          ? `timed out after ${timeoutS} s`
          : result.isCanceled
            ? 'was stopped'
            : result.exitCode !== undefined
              ? `exited with code ${result.exitCode}`
              : `was killed by ${result.signal ?? 'a signal'}`;
    throw new Error(`route script "${name}" ${how}${excerpt ? `: ${excerpt}` : ''}`);
  }
  return scriptVerdict(String(result.stdout ?? ''), request.payload);
}
