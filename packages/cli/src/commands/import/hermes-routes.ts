/**
 * One Hermes route (from config.yaml or webhook_subscriptions.json) as this gateway's route: the
 * keys both know pass as they are, a few are renamed, and each key with no equivalent is left
 * out with what to do instead. Pure: the files the route names are listed, not copied.
 */
import path from 'node:path';
import type { HermesRoute } from './hermes-files.js';
import type { FileCopy, ImportNote } from './import-notes.js';

/** Route keys Hermes and this gateway spell and mean alike. */
const SAME_KEYS = new Set([
  'secret',
  'events',
  'prompt',
  'skills',
  'deliver_extra',
  'deliver_only',
  'enabled',
  'filters',
  'coalesce',
  'description',
  'script',
  'script_timeout_seconds',
]);

/** Hermes' targets that are this gateway's under the same name (or an alias of one). */
export const SAME_TARGETS = new Set(['log', 'telegram', 'discord', 'slack', 'signal', 'sms']);

/** Keys left out with a reason and what to do instead. */
const LEFT_OUT: Readonly<Record<string, string>> = {
  toolsets:
    "left out: the agent's tools are the gateway's `agent.terminal` settings (per route under `agent:`); see docs/agent.md",
  mirror_to_session:
    'left out: this gateway keeps no chat sessions; each delivery is one run and its answer',
  retry_on_script_failure:
    'left out: here a failing script is always retried by the gateway itself, after the 202 (docs/configuration.md, `script`)',
};

/** Keys Hermes writes for its own bookkeeping; nothing to carry over or report. */
const BOOKKEEPING = new Set(['created_at']);

export interface MappedRoute {
  /** The route, or undefined when it cannot run here at all (a `cron_job` route). */
  route: Record<string, unknown> | undefined;
  /** Canonical-or-alias names of the platforms its target needs (`telegram`). */
  platforms: string[];
  copies: FileCopy[];
  notes: ImportNote[];
}

export interface RouteSource {
  /** Where the route is, for notes: `config.yaml: platforms.webhook.extra.routes.ci`. */
  where: string;
  /** Hermes' home: the folder of its config.yaml, where `scripts/` and `skills/` live. */
  hermesHome: string;
}

/** A path of Hermes' home (`~/.hermes/x`, `/abs/.hermes/x`) as one relative to it, or undefined. */
function relativeToHermesHome(file: string, hermesHome: string): string | undefined {
  if (file.startsWith('~/.hermes/')) return file.slice('~/.hermes/'.length);
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(hermesHome, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? undefined : relative;
}

/** The script's first item as a file under `<home>/scripts/`, and the copy that puts it there. */
function mapScript(
  script: string | string[],
  source: RouteSource,
  copies: FileCopy[],
  notes: ImportNote[],
): string | string[] {
  const [program = '', ...args] = Array.isArray(script) ? script : [script];
  const scriptsDir = path.join(source.hermesHome, 'scripts');
  const inScripts = path.isAbsolute(program) ? path.relative(scriptsDir, program) : program;
  const relative =
    inScripts.startsWith('..') || path.isAbsolute(inScripts) ? path.basename(program) : inScripts;
  const from = path.isAbsolute(program) ? program : path.join(scriptsDir, program);
  copies.push({
    from,
    to: path.join('scripts', relative),
    what: 'script',
    key: `${source.where}.script`,
  });
  if (relative !== program) {
    notes.push({
      key: `${source.where}.script`,
      kind: 'changed',
      detail: `${program} → ${relative} (scripts live in <home>/scripts/ here)`,
    });
  }
  return Array.isArray(script) ? [relative, ...args] : relative;
}

/** Every `in_file` of a filter tree made relative to the home, with the copies of their files. */
function mapInFiles(
  filters: unknown,
  source: RouteSource,
  copies: FileCopy[],
  notes: ImportNote[],
): unknown {
  if (Array.isArray(filters)) return filters.map((item) => mapInFiles(item, source, copies, notes));
  if (filters === null || typeof filters !== 'object') return filters;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === 'in_file' && typeof value === 'string') {
      const relative = relativeToHermesHome(value, source.hermesHome);
      if (relative === undefined) {
        notes.push({
          key: `${source.where}.filters`,
          kind: 'changed',
          detail: `in_file ${value} is outside Hermes' home; copied to <home>/lists/${path.basename(value)}`,
        });
      }
      const target = relative ?? path.join('lists', path.basename(value));
      copies.push({
        from: path.isAbsolute(value) ? value : path.join(source.hermesHome, relative ?? value),
        to: target,
        what: 'in_file list',
        key: `${source.where}.filters`,
      });
      out[key] = target;
    } else {
      out[key] = mapInFiles(value, source, copies, notes);
    }
  }
  return out;
}

/** Hermes' target as this gateway's, with a note where it changes or has no equivalent. */
function mapTarget(deliver: string, where: string, notes: ImportNote[]): string {
  if (SAME_TARGETS.has(deliver)) return deliver;
  if (deliver === 'github_comment') {
    notes.push({
      key: `${where}.deliver`,
      kind: 'changed',
      detail:
        'github_comment → forge_comment (the same comment; deliver_extra.repo and pr_number read alike)',
    });
    return 'forge_comment';
  }
  notes.push({
    key: `${where}.deliver`,
    kind: 'left out',
    detail: `no ${deliver} target here; the route delivers to the log instead. A plugin can add the target (docs/plugins.md), then set deliver back`,
  });
  return 'log';
}

/**
 * The route, its target's platforms, the files to copy, and a note for each key that changed or
 * has no equivalent.
 *
 * @example mapHermesRoute({ deliver: 'github_comment', prompt: '…' }, { where, hermesHome })
 */
export function mapHermesRoute(hermes: HermesRoute, source: RouteSource): MappedRoute {
  const notes: ImportNote[] = [];
  const copies: FileCopy[] = [];
  const { where } = source;
  if (hermes.cron_job !== undefined) {
    notes.push({
      key: `${where}.cron_job`,
      kind: 'left out',
      detail:
        'the route fires a Hermes cron job, which this gateway does not have; not imported. Give it a prompt and a target instead',
    });
    return { route: undefined, platforms: [], copies, notes };
  }
  const route: Record<string, unknown> = {};
  const platforms: string[] = [];
  for (const [key, value] of Object.entries(hermes)) {
    if (BOOKKEEPING.has(key) || value === undefined) continue;
    if (key === 'deliver' && hermes.deliver !== undefined) {
      const target = mapTarget(hermes.deliver, where, notes);
      route.deliver = target;
      if (target !== 'log' && SAME_TARGETS.has(target)) platforms.push(target);
    } else if (key === 'profile') {
      if (value !== 'default') {
        notes.push({
          key: `${where}.profile`,
          kind: 'left out',
          detail: `Hermes served it under /p/${typeof value === 'string' ? value : JSON.stringify(value)}/webhooks/…; here it is /webhooks/<name> of this home. Run a gateway home per profile to keep them apart`,
        });
      }
    } else if (key === 'script' && hermes.script !== undefined) {
      route.script = mapScript(hermes.script, source, copies, notes);
    } else if (key === 'filters') {
      route.filters = mapInFiles(value, source, copies, notes);
    } else if (key === 'skills' && hermes.skills !== undefined) {
      route.skills = hermes.skills;
      for (const skill of hermes.skills) {
        copies.push({
          from: path.join(source.hermesHome, 'skills'),
          to: path.join('skills', skill),
          what: 'skill',
          key: `${where}.skills`,
          skill,
        });
      }
    } else if (SAME_KEYS.has(key)) {
      route[key] = value;
    } else {
      notes.push({
        key: `${where}.${key}`,
        kind: 'left out',
        detail:
          LEFT_OUT[key] ?? 'not a route key of this gateway (docs/configuration.md lists them)',
      });
    }
  }
  return { route, platforms, copies, notes };
}
