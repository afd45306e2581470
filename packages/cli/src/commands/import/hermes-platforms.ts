/**
 * Hermes' messaging platforms as this gateway's delivery platforms. Hermes often keeps their
 * credentials in `~/.hermes/.env` rather than config.yaml; where config.yaml has none, the
 * platform gets a `${VAR}` reference to the variable Hermes reads, so the gateway reads the same
 * environment (and says which one is missing at start).
 */
import type { HermesPlatform } from './hermes-files.js';
import type { ImportNote } from './import-notes.js';

interface PlatformRecipe {
  /** This gateway's platform block from Hermes' (credential and home channel filled in). */
  build(hermes: HermesPlatform, home: string | undefined): Record<string, unknown>;
}

/** A bot-token messenger: its token from config.yaml, else the variable Hermes reads it from. */
function botMessenger(tokenVariable: string): PlatformRecipe {
  return {
    build: (hermes, home) => ({
      enabled: true,
      token: hermes.token ?? `\${${tokenVariable}}`,
      ...(home === undefined ? {} : { home_channel: home }),
    }),
  };
}

const RECIPES: Readonly<Record<string, PlatformRecipe>> = {
  telegram: botMessenger('TELEGRAM_BOT_TOKEN'),
  discord: botMessenger('DISCORD_BOT_TOKEN'),
  slack: botMessenger('SLACK_BOT_TOKEN'),
  signal: {
    build: (hermes, home) => ({
      enabled: true,
      number:
        typeof hermes.extra?.account === 'string' ? hermes.extra.account : '${SIGNAL_ACCOUNT}',
      api_base:
        typeof hermes.extra?.http_url === 'string'
          ? hermes.extra.http_url
          : '${SIGNAL_HTTP_URL:-http://127.0.0.1:8080}',
      ...(home === undefined ? {} : { home_channel: home }),
    }),
  },
  sms: {
    build: (_hermes, home) => ({
      enabled: true,
      account_sid: '${TWILIO_ACCOUNT_SID}',
      auth_token: '${TWILIO_AUTH_TOKEN}',
      from: '${TWILIO_PHONE_NUMBER}',
      ...(home === undefined ? {} : { home_number: home }),
    }),
  },
};

/** The platform keys each recipe reads; the rest of Hermes' block is reported as left out. */
const READ_KEYS = new Set(['enabled', 'token', 'home_channel', 'extra']);

function homeChannelOf(hermes: HermesPlatform): string | undefined {
  const home = hermes.home_channel;
  if (home === undefined) return undefined;
  if (typeof home === 'string') return home;
  return home.chat_id === undefined ? undefined : String(home.chat_id);
}

export interface MappedPlatform {
  /** Hermes' name, which is an alias this gateway accepts (`telegram` is `messenger_a`). */
  name: string;
  block: Record<string, unknown> | undefined;
  notes: ImportNote[];
}

/** True for a Hermes platform this gateway can deliver to. */
export function isDeliveryPlatform(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(RECIPES, name);
}

/**
 * Hermes' platform block (or none, when only a route names the platform) as this gateway's.
 *
 * @example mapHermesPlatform('telegram', { enabled: true, home_channel: { chat_id: 42 } })
 */
export function mapHermesPlatform(
  name: string,
  hermes: HermesPlatform | undefined,
): MappedPlatform {
  const where = `config.yaml: platforms.${name}`;
  const recipe = RECIPES[name];
  if (!recipe) {
    return {
      name,
      block: undefined,
      notes: [
        {
          key: where,
          kind: 'left out',
          detail: `this gateway has no ${name} platform; routes that delivered there now deliver to the log`,
        },
      ],
    };
  }
  const given = hermes ?? {};
  const notes: ImportNote[] = [];
  const block = recipe.build(given, homeChannelOf(given));
  notes.push({
    key: where,
    kind: 'mapped',
    detail: `platforms.${name} (enabled${given.home_channel === undefined ? '' : ', home channel'})`,
  });
  const references = Object.values(block).filter(
    (value): value is string => typeof value === 'string' && value.includes('${'),
  );
  if (references.length > 0) {
    notes.push({
      key: `${where}`,
      kind: 'changed',
      detail: `credentials read from the environment as Hermes reads its .env: ${references.join(', ')}; set them for the gateway`,
    });
  }
  if (typeof given.home_channel === 'object' && given.home_channel.thread_id !== undefined) {
    notes.push({
      key: `${where}.home_channel.thread_id`,
      kind: 'left out',
      detail: 'set deliver_extra.thread_id on the routes that should post in that thread',
    });
  }
  for (const key of Object.keys(given)) {
    if (READ_KEYS.has(key)) continue;
    notes.push({ key: `${where}.${key}`, kind: 'left out', detail: 'no equivalent here' });
  }
  for (const key of Object.keys(given.extra ?? {})) {
    if (name === 'signal' && (key === 'account' || key === 'http_url')) continue;
    notes.push({
      key: `${where}.extra.${key}`,
      kind: 'left out',
      detail: 'no equivalent here (docs/configuration.md lists the platform keys)',
    });
  }
  return { name, block, notes };
}
