/**
 * Config mistakes that would make every delivery to a Bitbucket target fail, found when the config
 * is read: a route delivering to one while `platforms.bitbucket` has no token, and a
 * `deliver_extra.mode` that is neither `new` nor `update`.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import {
  checkSettingProblems,
  commentModeProblems,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { BitbucketSettings } from './settings.js';
import { BITBUCKET_COMMENT_TARGET, BITBUCKET_TARGETS } from './target-names.js';

/** Every problem, each with its key path; empty when all is well. */
export function bitbucketConfigProblems(
  settings: BitbucketSettings,
  config: GatewayConfig,
): ConfigProblem[] {
  const targets: readonly string[] = BITBUCKET_TARGETS;
  const using = Object.entries(config.platforms.webhook.extra.routes).filter(([, route]) =>
    targets.includes(route.deliver),
  );
  const problems = [
    ...commentModeProblems(config, [BITBUCKET_COMMENT_TARGET]),
    ...checkSettingProblems(config, BITBUCKET_TARGETS),
  ];
  if (using.length > 0 && settings.token === undefined) {
    problems.push({
      path: 'platforms.bitbucket.token',
      message: `is required: route ${using.map(([name]) => name).join(', ')} delivers to Bitbucket; set an access token with pull request write access (e.g. "\${BITBUCKET_TOKEN}")`,
    });
  }
  return problems;
}
