/**
 * Read-only questions to the forges through their CLIs' `api` commands (`gh api`, `glab api`):
 * who the gateway's account is, and what a commenter may do on a repository. Answers are JSON,
 * checked with zod; a CLI that fails or answers something else is an error naming the request.
 */
import type { Credentials } from '@webhook-gateway/core';
import type { z } from 'zod';
import { altforgeEnv, altforgeSecrets } from './altforge-cli.js';
import { traceCliRun } from './cli-span.js';
import { stderrSummary } from './failure.js';
import { forgeEnv, forgeSecrets } from './forge-cli.js';
import type { AltforgeSettings, ForgeSettings } from './settings.js';

/** Which forge CLI answers, with its environment. */
export interface ApiClient {
  cli: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Masked in error messages (the token). */
  secrets: readonly string[];
}

/** gh for `settings`; with `platforms.forge.app`, as the delivery's installation (`credentials`). */
export function forgeApiClient(settings: ForgeSettings, credentials?: Credentials): ApiClient {
  const env = forgeEnv(settings, credentials);
  return {
    cli: settings.cli,
    env,
    timeoutMs: settings.timeout_s * 1000,
    secrets: forgeSecrets(env),
  };
}

/** glab for `settings`; with a project token in `credentials`, as that token's user. */
export function altforgeApiClient(
  settings: AltforgeSettings,
  credentials?: Credentials,
): ApiClient {
  const env = altforgeEnv(settings, credentials);
  return {
    cli: settings.cli,
    env,
    timeoutMs: settings.timeout_s * 1000,
    secrets: altforgeSecrets(env),
  };
}

/**
 * glab once per token the altforge settings hold (`token` and each of `tokens`), so the loop guard
 * knows every bot user the gateway posts as.
 */
export function altforgeClients(settings: AltforgeSettings): ApiClient[] {
  const tokens = new Set([
    ...(settings.token ? [settings.token] : []),
    ...Object.values(settings.tokens ?? {}),
  ]);
  if (tokens.size === 0) return [altforgeApiClient(settings)];
  return [...tokens].map((token) => altforgeApiClient(settings, { GITLAB_TOKEN: token }));
}

/** A forge API request that failed or answered unexpectedly (retried like any failed attempt). */
export class ForgeApiError extends Error {
  /** True when the forge answered 404 (no such user or member), as opposed to being unreachable. */
  readonly notFound: boolean;
  constructor(message: string, notFound: boolean) {
    super(message);
    this.name = 'ForgeApiError';
    this.notFound = notFound;
  }
}

/** `<cli> api <path>`, its JSON answer checked with `schema`. */
export async function askForgeApi<T>(
  client: ApiClient,
  path: string,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
): Promise<T> {
  const what = `${client.cli} api ${path}`;
  // Loaded on first use: a gateway that never runs it does not pay its start-up.
  const { execa } = await import('execa');
  const result = await traceCliRun(client.cli, ['api'], () =>
    execa(client.cli, ['api', path], {
      env: client.env,
      timeout: client.timeoutMs,
      ...(signal ? { cancelSignal: signal } : {}),
      forceKillAfterDelay: 2_000,
      reject: false,
      stdin: 'ignore',
      maxBuffer: 1024 * 1024,
    }),
  );
  if (result.failed) {
    const stderr = typeof result.stderr === 'string' ? result.stderr : '';
    const reason = result.timedOut
      ? `timed out after ${client.timeoutMs / 1000} s`
      : stderr
        ? stderrSummary(stderr, client.secrets)
        : (result.code ?? `exit code ${String(result.exitCode)}`);
    throw new ForgeApiError(`${what} failed: ${reason}`, /HTTP 404|404 Not Found/i.test(stderr));
  }
  let json: unknown;
  try {
    json = JSON.parse(String(result.stdout));
  } catch {
    throw new ForgeApiError(`${what} did not answer JSON`, false);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ForgeApiError(`${what} answered an unexpected shape: ${parsed.error.message}`, false);
  }
  return parsed.data;
}
