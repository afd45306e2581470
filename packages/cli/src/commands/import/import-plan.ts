/**
 * What `import hermes` will write, worked out from Hermes' two files before anything is touched:
 * the webhook keys, routes, platforms and subscriptions, the files to copy, and one note per key
 * (mapped, changed, or left out with what to do instead). Pure; `home-writer.ts` applies it.
 */
import path from 'node:path';
import type { HermesConfig, HermesRoute, HermesSubscriptions } from './hermes-files.js';
import { isDeliveryPlatform, mapHermesPlatform } from './hermes-platforms.js';
import { mapHermesRoute, SAME_TARGETS } from './hermes-routes.js';
import type { FileCopy, ImportNote } from './import-notes.js';

/** A Hermes subscription that fits this gateway's subscriptions (`webhook subscribe`'s fields). */
interface SubscriptionImport {
  name: string;
  events: string[];
  prompt: string | undefined;
  deliver: string;
  deliverChatId: string | undefined;
  skills: string[];
  secret: string | undefined;
  description: string | undefined;
}

export interface ImportPlan {
  /** `platforms.webhook.enabled`, when Hermes sets it. */
  webhookEnabled: boolean | undefined;
  /** Keys of `platforms.webhook.extra` other than `routes`. */
  webhookExtra: Record<string, unknown>;
  routes: Record<string, Record<string, unknown>>;
  /** By Hermes' platform name (an alias here). */
  platforms: Record<string, Record<string, unknown>>;
  subscriptions: SubscriptionImport[];
  copies: FileCopy[];
  notes: ImportNote[];
}

/** `platforms.webhook.extra` keys both gateways spell and mean alike. */
const SAME_EXTRA_KEYS = new Set(['host', 'port', 'secret', 'rate_limit', 'max_body_bytes']);

/** A subscription's keys this gateway's subscriptions hold; any other makes it a static route. */
const SUBSCRIPTION_KEYS = new Set([
  'description',
  'events',
  'secret',
  'prompt',
  'skills',
  'deliver',
  'deliver_extra',
  'profile',
  'created_at',
]);

/** Why a subscription must become a static route here, or undefined when it fits. */
function staticRouteReason(route: HermesRoute): string | undefined {
  const extra = Object.keys(route).filter((key) => !SUBSCRIPTION_KEYS.has(key));
  if (extra.length > 0) return `it sets ${extra.join(', ')}`;
  const extraKeys = Object.keys(route.deliver_extra ?? {}).filter((key) => key !== 'chat_id');
  if (extraKeys.length > 0) return `it sets deliver_extra.${extraKeys.join(', deliver_extra.')}`;
  if (route.profile !== undefined && route.profile !== 'default') return 'it names a profile';
  const deliver = route.deliver ?? 'log';
  if (!SAME_TARGETS.has(deliver) && deliver !== 'github_comment')
    return `its target ${deliver} has no equivalent`;
  return undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

function textOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asSubscription(name: string, route: HermesRoute): SubscriptionImport {
  const chat = route.deliver_extra?.chat_id;
  return {
    name,
    events: strings(route.events),
    prompt: textOrUndefined(route.prompt),
    deliver: route.deliver === 'github_comment' ? 'forge_comment' : (route.deliver ?? 'log'),
    deliverChatId: typeof chat === 'string' || typeof chat === 'number' ? String(chat) : undefined,
    skills: strings(route.skills),
    secret: typeof route.secret === 'string' && route.secret !== '' ? route.secret : undefined,
    description: textOrUndefined(route.description),
  };
}

/** A top-level key of Hermes' config.yaml other than `platforms`: Hermes' own agent. */
function topLevelNote(key: string, value: unknown): ImportNote {
  if (key === 'model') {
    const model =
      typeof value === 'string'
        ? value
        : typeof value === 'object' && value !== null && 'default' in value
          ? typeof value.default === 'string'
            ? value.default
            : undefined
          : undefined;
    return {
      key: 'config.yaml: model',
      kind: 'left out',
      detail: `Hermes' model is not this gateway's agent; to run one, set agent.runner: openai, agent.model${model ? `: ${model}` : ''}, agent.base_url and agent.api_key_env (docs/agent.md)`,
    };
  }
  return {
    key: `config.yaml: ${key}`,
    kind: 'left out',
    detail: "Hermes' own agent settings; no equivalent here",
  };
}

export interface PlanSources {
  config: HermesConfig;
  /** Absolute path of Hermes' config.yaml; its folder is Hermes' home. */
  configFile: string;
  subscriptions?: HermesSubscriptions | undefined;
}

/**
 * The whole import, decided before anything is written.
 *
 * @example planHermesImport({ config: readHermesConfig(file), configFile: file })
 */
export function planHermesImport(sources: PlanSources): ImportPlan {
  const hermesHome = path.dirname(sources.configFile);
  const plan: ImportPlan = {
    webhookEnabled: undefined,
    webhookExtra: {},
    routes: {},
    platforms: {},
    subscriptions: [],
    copies: [],
    notes: [],
  };
  const usedPlatforms = new Set<string>();
  const webhook = sources.config.platforms?.webhook;
  plan.webhookEnabled = webhook?.enabled;
  if (webhook?.enabled !== undefined) {
    plan.notes.push({
      key: 'config.yaml: platforms.webhook.enabled',
      kind: 'mapped',
      detail: 'platforms.webhook.enabled',
    });
  }
  const extra = webhook?.extra ?? {};
  const scriptTimeout = extra.script_timeout_seconds;
  for (const [key, value] of Object.entries(extra)) {
    const where = `config.yaml: platforms.webhook.extra.${key}`;
    if (key === 'routes') continue;
    if (SAME_EXTRA_KEYS.has(key)) {
      plan.webhookExtra[key] = value;
      plan.notes.push({ key: where, kind: 'mapped', detail: `platforms.webhook.extra.${key}` });
    } else if (key === 'script_timeout_seconds') {
      plan.notes.push({
        key: where,
        kind: 'changed',
        detail: 'set on each route with a script (script_timeout_seconds), as routes here hold it',
      });
    } else {
      plan.notes.push({ key: where, kind: 'left out', detail: 'no equivalent here' });
    }
  }

  const addRoute = (name: string, hermes: HermesRoute, where: string): void => {
    const mapped = mapHermesRoute(hermes, { where, hermesHome });
    plan.notes.push(...mapped.notes);
    plan.copies.push(...mapped.copies);
    if (!mapped.route) return;
    if (mapped.route.script !== undefined && scriptTimeout !== undefined) {
      mapped.route.script_timeout_seconds ??= scriptTimeout;
    }
    for (const platform of mapped.platforms) usedPlatforms.add(platform);
    plan.routes[name] = mapped.route;
    plan.notes.push({
      key: where,
      kind: 'mapped',
      detail: `platforms.webhook.extra.routes.${name}`,
    });
  };

  for (const [name, route] of Object.entries(extra.routes ?? {})) {
    addRoute(name, route, `config.yaml: platforms.webhook.extra.routes.${name}`);
  }

  for (const [name, route] of Object.entries(sources.subscriptions ?? {})) {
    const where = `webhook_subscriptions.json: ${name}`;
    const reason = staticRouteReason(route);
    if (reason === undefined && route.cron_job === undefined) {
      const subscription = asSubscription(name, route);
      plan.subscriptions.push(subscription);
      if (subscription.deliver !== 'log' && SAME_TARGETS.has(subscription.deliver)) {
        usedPlatforms.add(subscription.deliver);
      }
      plan.notes.push({ key: where, kind: 'mapped', detail: `subscription ${name}` });
      if (route.deliver === 'github_comment') {
        plan.notes.push({
          key: `${where}.deliver`,
          kind: 'changed',
          detail: 'github_comment → forge_comment',
        });
      }
      continue;
    }
    if (reason !== undefined) {
      plan.notes.push({
        key: where,
        kind: 'changed',
        detail: `became a static route in config.yaml: ${reason}, and a subscription here holds only events, prompt, target, chat id, skills, secret and description`,
      });
    }
    addRoute(name, route, where);
  }

  const hermesPlatforms = Object.entries(sources.config.platforms ?? {}).filter(
    ([name]) => name !== 'webhook',
  );
  const named = new Set(hermesPlatforms.map(([name]) => name));
  for (const [name, block] of hermesPlatforms) {
    const used = usedPlatforms.has(name);
    const enabled = (block as { enabled?: unknown }).enabled === true;
    if (!used && !enabled) continue;
    const mapped = mapHermesPlatform(name, block);
    plan.notes.push(...mapped.notes);
    if (mapped.block && isDeliveryPlatform(name)) plan.platforms[name] = mapped.block;
  }
  for (const name of usedPlatforms) {
    if (named.has(name)) continue;
    const mapped = mapHermesPlatform(name, undefined);
    plan.notes.push(...mapped.notes);
    if (mapped.block) plan.platforms[name] = mapped.block;
  }

  for (const [key, value] of Object.entries(sources.config)) {
    if (key !== 'platforms') plan.notes.push(topLevelNote(key, value));
  }
  return plan;
}
