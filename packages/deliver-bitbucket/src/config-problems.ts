/**
 * Config mistakes that would make every delivery to a Bitbucket target fail, found when the config
 * is read: a route delivering to one while the Bitbucket its events come from has no token (Data
 * Center's `pr:*` events: `platforms.bitbucket.data_center`; Cloud's `pullrequest:*`:
 * `platforms.bitbucket.token`; a route naming neither needs one of them), and a
 * `deliver_extra.mode` that is neither `new` nor `update`.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import {
  checkSettingProblems,
  commentModeProblems,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { BitbucketSettings } from './settings.js';
import { BITBUCKET_COMMENT_TARGET, BITBUCKET_TARGETS } from './target-names.js';

const CLOUD_TOKEN = 'platforms.bitbucket.token';
const CLOUD_HOW = 'set an access token with pull request write access (e.g. "${BITBUCKET_TOKEN}")';
const DATA_CENTER_HOW =
  'set platforms.bitbucket.data_center: { base_url: "https://bitbucket.example.com", token: "${BITBUCKET_DATA_CENTER_TOKEN}" } (an HTTP access token with pull request write access)';

/** The Bitbucket a route's events come from: Data Center's keys are `pr:…`, Cloud's `pullrequest:…`. */
function flavoursOf(events: readonly string[]) {
  return {
    dataCenter: events.some((event) => event.startsWith('pr:')),
    cloud: events.some((event) => event.startsWith('pullrequest:')),
  };
}

/** Every problem, each with its key path; empty when all is well. */
export function bitbucketConfigProblems(
  settings: BitbucketSettings,
  config: GatewayConfig,
): ConfigProblem[] {
  const targets: readonly string[] = BITBUCKET_TARGETS;
  const using = Object.entries(config.platforms.webhook.extra.routes).filter(([, route]) =>
    targets.includes(route.deliver),
  );
  const cloudReady = settings.token !== undefined;
  const dataCenter = settings.data_center;
  const dataCenterReady = dataCenter?.token !== undefined;
  const needCloud: string[] = [];
  const needDataCenter: string[] = [];
  const needEither: string[] = [];
  for (const [name, route] of using) {
    const from = flavoursOf(route.events);
    if (from.cloud && !cloudReady) needCloud.push(name);
    if (from.dataCenter && !dataCenterReady) needDataCenter.push(name);
    if (!from.cloud && !from.dataCenter && !cloudReady && !dataCenterReady) needEither.push(name);
  }
  const problems = [
    ...commentModeProblems(config, [BITBUCKET_COMMENT_TARGET]),
    ...checkSettingProblems(config, BITBUCKET_TARGETS),
  ];
  const routes = (names: string[]) => `route ${names.join(', ')}`;
  if (needCloud.length > 0 || needEither.length > 0) {
    const names = [...needCloud, ...needEither];
    problems.push({
      path: CLOUD_TOKEN,
      message:
        needEither.length > 0
          ? `is required: ${routes(names)} delivers to Bitbucket; ${CLOUD_HOW}, or for Bitbucket Data Center ${DATA_CENTER_HOW}`
          : `is required: ${routes(names)} delivers Bitbucket Cloud events (pullrequest:*) to Bitbucket; ${CLOUD_HOW}`,
    });
  }
  if (needDataCenter.length > 0) {
    problems.push({
      path:
        dataCenter === undefined
          ? 'platforms.bitbucket.data_center.base_url'
          : 'platforms.bitbucket.data_center.token',
      message: `is required: ${routes(needDataCenter)} delivers Bitbucket Data Center events (pr:*) to Bitbucket; ${DATA_CENTER_HOW}`,
    });
  }
  return problems;
}
