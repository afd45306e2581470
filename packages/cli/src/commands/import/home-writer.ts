/**
 * Applies an import plan to a gateway home: config.yaml edited as a YAML document (so the
 * operator's comments and keys stay), the files copied, the subscriptions stored. Nothing the
 * home already has is replaced: each clash is a note, and this gateway's version stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Document, isMap, parseDocument } from 'yaml';
import { canonicalName, configSchema } from '@webhook-gateway/core/runtime';
import { builtinPlugins } from '../../builtin-plugins.js';
import { openStore } from '../../open-store.js';
import { applySubscriptionChanges } from '../webhook/subscription.js';
import { generateSecret } from '../../secret.js';
import type { FileCopy, ImportNote } from './import-notes.js';
import type { ImportPlan } from './import-plan.js';

/** Aliases of platform names, so `telegram:` in Hermes finds an existing `messenger_a:` here. */
const PLATFORM_ALIASES: Readonly<Record<string, string>> = {
  telegram: 'messenger_a',
  discord: 'messenger_b',
  slack: 'messenger_c',
  signal: 'messenger_d',
};

export interface WriteResult {
  notes: ImportNote[];
  /** Secrets copied into config.yaml (counted, never shown). */
  secretsWritten: number;
  routesWritten: string[];
  subscriptionsWritten: string[];
  filesCopied: string[];
}

function readDocument(file: string): Document {
  if (!fs.existsSync(file)) return new Document({});
  const document = parseDocument(fs.readFileSync(file, 'utf8'));
  if (document.errors.length > 0) {
    throw new Error(`${file}: not valid YAML (${document.errors[0]?.message.split('\n')[0]})`);
  }
  return document.contents === null ? new Document({}) : document;
}

function hasPlatform(document: Document, name: string): string | undefined {
  const canonical = canonicalName(name, PLATFORM_ALIASES);
  const platforms = document.getIn(['platforms']);
  if (!isMap(platforms)) return undefined;
  for (const candidate of [name, canonical]) {
    if (platforms.has(candidate)) return candidate;
  }
  return undefined;
}

/** Where a skill is in Hermes' home: `skills/<name>/` or one category folder deeper. */
function findSkill(skillsDir: string, name: string): string | undefined {
  const direct = path.join(skillsDir, name);
  if (fs.existsSync(path.join(direct, 'SKILL.md'))) return direct;
  if (!fs.existsSync(skillsDir)) return undefined;
  for (const entry of fs.readdirSync(skillsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const nested = path.join(skillsDir, entry.name, name);
    if (fs.existsSync(path.join(nested, 'SKILL.md'))) return nested;
  }
  return undefined;
}

function copyFile(copy: FileCopy, home: string, notes: ImportNote[], copied: string[]): void {
  const to = path.join(home, copy.to);
  if (fs.existsSync(to)) {
    notes.push({
      key: copy.key,
      kind: 'changed',
      detail: `kept this home's ${copy.to}; Hermes' ${copy.what} was not copied over it`,
    });
    return;
  }
  const from = copy.skill === undefined ? copy.from : findSkill(copy.from, copy.skill);
  if (from === undefined || !fs.existsSync(from)) {
    notes.push({
      key: copy.key,
      kind: 'left out',
      detail:
        copy.what === 'skill'
          ? `skill ${copy.skill} not found under ${copy.from}; put it in <home>/${copy.to}/SKILL.md`
          : `${copy.what} ${from ?? copy.from} not found; put it at <home>/${copy.to} before starting`,
    });
    return;
  }
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true, preserveTimestamps: true });
  copied.push(copy.to);
}

/** Counts the `secret` values a route block holds (a string or a list of them). */
function secretsIn(route: Record<string, unknown>): number {
  const secret = route.secret;
  if (typeof secret === 'string') return secret.includes('${') ? 0 : 1;
  return Array.isArray(secret) ? secret.filter((s) => !String(s).includes('${')).length : 0;
}

/**
 * Writes the plan into `home` (config.yaml at `configFile`). With `dryRun`, works out the same
 * notes and writes nothing.
 */
export async function writeImport(
  plan: ImportPlan,
  options: { home: string; configFile: string; dryRun: boolean },
): Promise<WriteResult> {
  const { home, configFile, dryRun } = options;
  const notes: ImportNote[] = [];
  const result: WriteResult = {
    notes,
    secretsWritten: 0,
    routesWritten: [],
    subscriptionsWritten: [],
    filesCopied: [],
  };
  const document = readDocument(configFile);

  if (plan.webhookEnabled !== undefined && !document.hasIn(['platforms', 'webhook', 'enabled'])) {
    document.setIn(['platforms', 'webhook', 'enabled'], plan.webhookEnabled);
  }
  for (const [key, value] of Object.entries(plan.webhookExtra)) {
    const at = ['platforms', 'webhook', 'extra', key];
    if (document.hasIn(at)) {
      notes.push({
        key: `config.yaml: platforms.webhook.extra.${key}`,
        kind: 'changed',
        detail: `kept this home's platforms.webhook.extra.${key}`,
      });
      continue;
    }
    document.setIn(at, value);
    if (key === 'secret') result.secretsWritten += secretsIn({ secret: value });
  }
  for (const [name, route] of Object.entries(plan.routes)) {
    const at = ['platforms', 'webhook', 'extra', 'routes', name];
    if (document.hasIn(at)) {
      notes.push({
        key: `route ${name}`,
        kind: 'left out',
        detail: `this home already has a route ${name}; it was kept. Rename Hermes' route and import again to add it`,
      });
      continue;
    }
    document.setIn(at, route);
    result.routesWritten.push(name);
    result.secretsWritten += secretsIn(route);
  }
  for (const [name, block] of Object.entries(plan.platforms)) {
    const existing = hasPlatform(document, name);
    if (existing !== undefined) {
      notes.push({
        key: `config.yaml: platforms.${name}`,
        kind: 'changed',
        detail: `kept this home's platforms.${existing}`,
      });
      continue;
    }
    document.setIn(['platforms', name], block);
  }

  if (!dryRun) {
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(configFile, document.toString(), {
      mode: result.secretsWritten > 0 ? 0o600 : 0o644,
    });
    if (result.secretsWritten > 0) fs.chmodSync(configFile, 0o600);
    for (const copy of plan.copies) copyFile(copy, home, notes, result.filesCopied);
  }

  if (plan.subscriptions.length > 0) {
    await storeSubscriptions(plan, document, { home, dryRun }, result);
  }
  return result;
}

async function storeSubscriptions(
  plan: ImportPlan,
  document: Document,
  options: { home: string; dryRun: boolean },
  result: WriteResult,
): Promise<void> {
  const written: unknown = document.toJS();
  const store =
    typeof written === 'object' && written !== null && 'store' in written ? written.store : {};
  const parsed = configSchema.safeParse({ store });
  if (!parsed.success) {
    throw new Error('config.yaml: store: not valid; fix it, then import the subscriptions again');
  }
  const storeConfig = parsed.data.store;
  if (storeConfig.kind === 'memory') {
    result.notes.push({
      key: 'webhook_subscriptions.json',
      kind: 'left out',
      detail:
        'store.kind is "memory", where subscriptions vanish; set store.kind: sqlite and import again',
    });
    return;
  }
  if (options.dryRun) {
    result.subscriptionsWritten.push(...plan.subscriptions.map((s) => s.name));
    return;
  }
  const opened = await openStore(storeConfig, {
    home: options.home,
    dir: options.home,
    plugins: builtinPlugins(),
  });
  try {
    for (const subscription of plan.subscriptions) {
      if (await opened.getSubscription(subscription.name)) {
        result.notes.push({
          key: `webhook_subscriptions.json: ${subscription.name}`,
          kind: 'left out',
          detail: `this home already has a subscription ${subscription.name}; it was kept`,
        });
        continue;
      }
      const { name, ...changes } = subscription;
      if (changes.secret === undefined) {
        result.notes.push({
          key: `webhook_subscriptions.json: ${name}.secret`,
          kind: 'changed',
          detail: `no secret of its own (Hermes used the global one); set one with: webhook-gateway webhook subscribe ${name} --secret <the sender's secret>`,
        });
      }
      const next = applySubscriptionChanges(name, undefined, changes, Date.now(), generateSecret);
      await opened.putSubscription(next.subscription);
      result.subscriptionsWritten.push(name);
    }
  } finally {
    await opened.close();
  }
}
