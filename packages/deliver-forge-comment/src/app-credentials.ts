/**
 * A delivery's identity when `platforms.forge.app` is set: an installation token for the
 * payload's repository only, with only the permissions its route needs, as the environment
 * variables gh reads (`GH_TOKEN`; `GH_HOST` and `GH_ENTERPRISE_TOKEN` off github.com).
 */
import {
  lookupPath,
  pullRequestOf,
  reviewValuesIn,
  type Credentials,
  type CredentialsRequest,
  type DeliveryRecord,
  type RouteConfig,
} from '@webhook-gateway/core';
import type { AppPermissions } from './app-client.js';
import type { AppSessions } from './app-session.js';
import { checkIsOn } from './check-output.js';
import { forgeHostOf } from './forge-cli.js';
import type { ForgeSettings } from './settings.js';
import { FORGE_REVIEW_TARGET, FORGE_TARGET } from './target-names.js';

/**
 * What a route's token may do: read the code always (the agent reads it); write pull requests
 * where the route comments or reviews, read them where its template names a review value (the
 * prepared diff); write issues where comments go through the issues API (the living comment,
 * `mode: update`); write checks where the route shows its review as a check run.
 */
function routePermissions(routeConfig: Pick<RouteConfig, 'deliver' | 'deliver_extra' | 'prompt'>) {
  const permissions: Record<string, 'read' | 'write'> = { contents: 'read' };
  if (routeConfig.deliver === FORGE_TARGET || routeConfig.deliver === FORGE_REVIEW_TARGET) {
    permissions.pull_requests = 'write';
  } else if (reviewValuesIn(routeConfig.prompt).size > 0) {
    permissions.pull_requests = 'read';
  }
  const mode = routeConfig.deliver_extra.mode;
  const mayUpdate = mode === 'update' || (typeof mode === 'string' && mode.includes('{'));
  if (routeConfig.deliver === FORGE_TARGET && mayUpdate) permissions.issues = 'write';
  // `deliver_extra.check: true`: the review's check run on the head commit.
  const commentsOnPulls =
    routeConfig.deliver === FORGE_TARGET || routeConfig.deliver === FORGE_REVIEW_TARGET;
  if (commentsOnPulls && checkIsOn(routeConfig.deliver_extra)) permissions.checks = 'write';
  return permissions satisfies AppPermissions;
}

/**
 * Routes that call the forge as the App: its comment targets, routes whose template names a
 * review value (the review context), and command routes (the role check).
 */
function callsTheForge(routeConfig: RouteConfig, delivery: DeliveryRecord): boolean {
  if (routeConfig.deliver === FORGE_TARGET || routeConfig.deliver === FORGE_REVIEW_TARGET) {
    return true;
  }
  if (reviewValuesIn(routeConfig.prompt).size > 0 && pullRequestOf(delivery.payload, 'forge')) {
    return true;
  }
  return (routeConfig.commands ?? []).length > 0 && delivery.event === 'issue_comment';
}

/** The variables gh and the agent's terminal read for `token` on the App's forge. */
function appTokenEnv(settings: ForgeSettings, token: string): Record<string, string> {
  const host = forgeHostOf(settings);
  const env: Record<string, string> = { GH_TOKEN: token };
  if (host) env.GH_HOST = host;
  if (host && host !== 'github.com') env.GH_ENTERPRISE_TOKEN = token;
  return env;
}

/**
 * The delivery's installation token as environment variables; none for a delivery that is not
 * the App's on a route that does not call the forge. Throws (without retry) "not an App delivery"
 * for a route that calls the forge when the payload has no `installation.id`.
 */
export async function appCredentials(
  request: CredentialsRequest,
  settings: ForgeSettings,
  sessions: AppSessions,
): Promise<Credentials> {
  const app = settings.app;
  if (!app) return {};
  const { delivery, routeConfig } = request;
  const installationId = lookupPath(delivery.payload, 'installation.id');
  const repo = lookupPath(delivery.payload, 'repository.name');
  if (typeof installationId !== 'number' || typeof repo !== 'string') {
    if (!callsTheForge(routeConfig, delivery)) return {};
    throw Object.assign(
      new Error(
        `not an App delivery: platforms.forge.app is set, so route "${delivery.route}" calls the forge as the App, but the payload has no ${typeof installationId === 'number' ? 'repository.name' : 'installation.id'} (point the App's webhook at this route, not a repository hook)`,
      ),
      { retryable: false },
    );
  }
  const { tokens } = sessions.get(app, settings);
  // The exchange's error says whether a retry can help (401, 404, 422 cannot).
  return appTokenEnv(
    settings,
    await tokens.get(installationId, repo, routePermissions(routeConfig)),
  );
}
