/**
 * The environment a terminal command gets: an allowlist, so the gateway's own secrets (the model
 * API key, webhook secrets, platform tokens) never reach a command the model wrote.
 */
import type { Credentials } from '@webhook-gateway/core';
import type { TerminalConfig } from './agent-settings.js';

/** Variables every command gets when the gateway has them. */
const BASE_ENV_ALLOWLIST: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TERM',
  'TZ',
  'USER',
  'SHELL',
  'TMPDIR',
]);

/** What the `docker` and `ssh` clients themselves need to reach their daemon or agent. */
const CLIENT_ENV: Readonly<Record<TerminalConfig['backend'], readonly string[]>> = Object.freeze({
  local: [],
  docker: [
    'DOCKER_HOST',
    'DOCKER_CONTEXT',
    'DOCKER_CONFIG',
    'DOCKER_CERT_PATH',
    'DOCKER_TLS_VERIFY',
  ],
  ssh: ['SSH_AUTH_SOCK'],
});

/**
 * The allowlisted part of `source`: the base names, the backend client's names and
 * `terminal.env_allowlist` (e.g. `GH_TOKEN` for `gh`). Unset names are left out. The delivery's
 * `credentials` (an App's installation token, scoped to the delivery's repository) come on top.
 */
export function terminalEnv(
  source: NodeJS.ProcessEnv,
  terminal: Pick<TerminalConfig, 'backend' | 'env_allowlist'>,
  credentials: Credentials = {},
): Record<string, string> {
  const names = [
    ...BASE_ENV_ALLOWLIST,
    ...CLIENT_ENV[terminal.backend],
    ...(terminal.env_allowlist ?? []),
  ];
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...credentials };
}

/**
 * The `env_allowlist` names and the delivery's credentials to pass into a container
 * (`docker -e NAME`), when they are set.
 */
export function forwardedEnvNames(
  env: Record<string, string>,
  terminal: Pick<TerminalConfig, 'backend' | 'env_allowlist'>,
  credentials: Credentials = {},
): string[] {
  if (terminal.backend !== 'docker') return [];
  const names = [...(terminal.env_allowlist ?? []), ...Object.keys(credentials)];
  return [...new Set(names)].filter((name) => name in env);
}
