/**
 * What the reconcile e2e tests share: gh's environment against the TLS fake of the forge's API,
 * a gateway config whose route names the fake's hook, and the forge's pull request events.
 */
import type { FakeForgeApi } from '../../packages/reconcile/src/test-support/fake-forge-api.js';
import { appendingAgent } from './journal-agents.js';

/** The hook secret the fake signs with and the route checks. */
export const FORGE_HOOK_SECRET = 'e2e-forge-hook-secret';
/** The repository hook the route reconciles (`reconcile: { repo: octo/repo, hook_id: 12 }`). */
export const FORGE_HOOK = { owner: 'repos/octo/repo', id: 12 };

/** gh trusts the fake through SSL_CERT_FILE and reads no credentials of the machine. */
export function ghEnv(forge: FakeForgeApi): Record<string, string | undefined> {
  return {
    SSL_CERT_FILE: forge.caFile,
    GH_CONFIG_DIR: '/nonexistent/gh-config-for-tests',
    GH_TOKEN: undefined,
    GITHUB_TOKEN: undefined,
    GH_ENTERPRISE_TOKEN: undefined,
    GH_HOST: undefined,
  };
}

/**
 * A gateway on `port` whose route `reviews` reconciles the fake's hook every `intervalS`
 * seconds, its agent appending each delivery id it runs to `runsFile`.
 */
export function reconcilingConfig(
  forge: FakeForgeApi,
  options: { port: number; runsFile: string; intervalS?: number },
): Record<string, unknown> {
  return {
    agent: appendingAgent(options.runsFile, { sleepS: 0 }),
    platforms: {
      forge: { host: forge.host, token: forge.token },
      webhook: {
        extra: {
          port: options.port,
          reconcile_interval_s: options.intervalS ?? 3600,
          routes: {
            reviews: {
              secret: FORGE_HOOK_SECRET,
              events: ['pull_request'],
              reconcile: { repo: 'octo/repo', hook_id: FORGE_HOOK.id },
            },
          },
        },
      },
    },
  };
}

/** A `pull_request` `opened` payload of octo/repo. */
export function pullRequest(number: number): object {
  return {
    action: 'opened',
    number,
    pull_request: { number, title: `PR ${number}` },
    repository: { full_name: 'octo/repo' },
  };
}
