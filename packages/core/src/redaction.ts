/**
 * What counts as a secret, and how it is taken out of text, in one place: the log's censored
 * keys, a route script's journaled output, and every answer, line comment and message before it
 * leaves for a target. A prompt-injected agent that reads `env` cannot post the token.
 */

/** Keys whose values are secrets (the log censors them; configured values under them are redacted). */
export const SECRET_KEY_NAMES = [
  'secret',
  'token',
  'auth_token',
  'api_key',
  'password',
  'private_key',
  'jwt',
  // A delivery's forge identity, as the `credentials` hook names it.
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITLAB_TOKEN',
] as const;

/** What replaces a secret in text that leaves the gateway. */
export const REDACTED = '[redacted]';

/**
 * Well-known token shapes: GitHub (`ghp_` `gho_` `ghu_` `ghs_` `ghr_`, `github_pat_`), GitLab
 * (`glpat-`), OpenAI-style (`sk-`), Slack (`xoxa-` `xoxb-` `xoxp-` `xoxr-` …), AWS access key ids
 * (`AKIA…`), Standard Webhooks secrets (`whsec_`), PEM private-key blocks, and a token after
 * `Bearer` or `token` (its word kept).
 */
const TOKEN_SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bwhsec_[A-Za-z0-9+/=]{10,}/g,
  /\b(Bearer|token)\s+[A-Za-z0-9._~+/=-]{16,}/gi,
];

/** Environment variable names whose values are credentials (`GH_TOKEN`, `OPENAI_API_KEY`, …). */
const SECRET_ENV_NAME = /(?:TOKEN|SECRET|PASSWORD|API_KEY|PRIVATE_KEY|ACCESS_KEY|_KEY)$/i;

/** Shorter values are too likely to occur in ordinary text to be replaced wherever they appear. */
const MIN_SECRET_CHARS = 8;

/** Text with its secrets replaced, and how many replacements were made. */
interface Redacted {
  text: string;
  count: number;
}

/** Replaces secrets and token shapes in text. */
export interface Redactor {
  redact(text: string, censor?: string): Redacted;
}

/**
 * A redactor for `secrets` (exact values, longest first so a secret containing another goes
 * whole) and every well-known token shape.
 *
 * @example createRedactor(['s3cret-value']).redact('x s3cret-value ghp_' + 'a'.repeat(36))
 * // { text: 'x [redacted] [redacted]', count: 2 }
 */
export function createRedactor(
  secrets: Iterable<string>,
  minSecretChars = MIN_SECRET_CHARS,
): Redactor {
  const exact = [...new Set([...secrets].filter((s) => s.length >= minSecretChars))].sort(
    (a, b) => b.length - a.length,
  );
  return {
    redact(text, censor = REDACTED) {
      let count = 0;
      let out = text;
      for (const secret of exact) {
        const parts = out.split(secret);
        count += parts.length - 1;
        out = parts.join(censor);
      }
      for (const shape of TOKEN_SHAPES) {
        out = out.replace(shape, (_match, prefix?: unknown) => {
          count++;
          return typeof prefix === 'string' ? `${prefix} ${censor}` : censor;
        });
      }
      return { text: out, count };
    },
  };
}

/**
 * The string values under secret-named keys (`SECRET_KEY_NAMES`, and any key ending in `token`,
 * `secret` or `key`) anywhere in `value`: a config's secrets, wherever a plugin keeps them.
 */
export function secretsUnder(value: unknown, depth = 0): string[] {
  if (depth > 12 || value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const named =
      (SECRET_KEY_NAMES as readonly string[]).includes(key) ||
      /(?:token|secret|password|_key)s?$/i.test(key);
    if (named && typeof child === 'string') found.push(child);
    else if (named && Array.isArray(child)) {
      found.push(...child.filter((item): item is string => typeof item === 'string'));
    } else found.push(...secretsUnder(child, depth + 1));
  }
  return found;
}

/** The values of credential-named variables of an environment (`GH_TOKEN`, `*_API_KEY`, …). */
export function secretsInEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && SECRET_ENV_NAME.test(name))
    .map(([, value]) => value ?? '');
}
