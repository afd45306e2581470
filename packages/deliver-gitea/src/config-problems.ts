/**
 * Config mistakes that would make every delivery to a Gitea target fail, found when the config is
 * read: a route delivering to one while `platforms.gitea` lacks its address or token, a
 * `deliver_extra.mode` that is neither `new` nor `update`, a `check` or `details` not a boolean.
 */
import type { ConfigProblem, GatewayConfig } from '@webhook-gateway/core';
import {
  checkSettingProblems,
  commentModeProblems,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { GiteaSettings } from './settings.js';
import { GITEA_COMMENT_TARGET, GITEA_TARGETS } from './target-names.js';

const HELP = {
  base_url: 'the instance\'s address, e.g. "https://gitea.example.com"',
  token: 'an access token of the bot account with write access to issues (e.g. "${GITEA_TOKEN}")',
} as const;

/** Every problem, each with its key path; empty when all is well. */
export function giteaConfigProblems(
  settings: GiteaSettings,
  config: GatewayConfig,
): ConfigProblem[] {
  const routes = Object.entries(config.platforms.webhook.extra.routes);
  const targets: readonly string[] = GITEA_TARGETS;
  const using = routes.filter(([, route]) => targets.includes(route.deliver));
  const problems: ConfigProblem[] = [
    ...commentModeProblems(config, [GITEA_COMMENT_TARGET]),
    ...checkSettingProblems(config, GITEA_TARGETS),
  ];
  if (using.length === 0) return problems;
  for (const key of ['base_url', 'token'] as const) {
    if (settings[key] !== undefined) continue;
    const names = using.map(([name]) => name).join(', ');
    problems.push({
      path: `platforms.gitea.${key}`,
      message: `is required: route ${names} delivers to Gitea; set ${HELP[key]}`,
    });
  }
  return problems;
}
