/**
 * The review's state on the altforge: a commit status on the merge request's head commit
 * (`POST /projects/:id/statuses/:sha` through `glab api`), `running` while the review runs, then
 * `success` or `failed` (neutral is `success`: nothing blocks the merge).
 */
import { pullRequestOf } from '@webhook-gateway/core';
import { z } from 'zod';
import { ALTFORGE_PROFILE, altforgeEnv, altforgeSecrets } from './altforge-cli.js';
import { resolveAltforgeMergeRequest } from './altforge-target.js';
import {
  checkName,
  dashboardPage,
  IN_PROGRESS_TITLE,
  statusDescription,
  statusState,
  type CheckEnd,
} from './check-output.js';
import { cliApiError, runCliApi, type CliApiContext } from './cli-api.js';
import type { CheckSubject } from './check-subject.js';
import type { AltforgeSettings } from './settings.js';

const mergeRequestSchema = z.object({ sha: z.string().min(1) });

async function postStatus(
  subject: CheckSubject,
  settings: AltforgeSettings,
  state: string,
  description: string,
): Promise<void> {
  const target = subject.target;
  const mergeRequest = resolveAltforgeMergeRequest(subject.extra, subject.delivery.payload, target);
  const env = altforgeEnv(settings, subject.credentials);
  const glab: CliApiContext = {
    profile: { ...ALTFORGE_PROFILE, target, action: 'api' },
    cli: settings.cli,
    env,
    host: settings.host ?? ALTFORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `the status of merge request !${mergeRequest.iid} of ${mergeRequest.path}`,
    secrets: altforgeSecrets(env),
    signal: subject.signal,
  };
  const project = `projects/${encodeURIComponent(mergeRequest.path)}`;
  let sha = pullRequestOf(subject.delivery.payload, 'altforge')?.headSha;
  if (!sha) {
    // A note's payload may lack the head commit: the merge request's, as the altforge says now.
    const asked = await runCliApi(glab, [`${project}/merge_requests/${mergeRequest.iid}`]);
    if (asked.kind !== 'ok') throw cliApiError(glab, asked);
    sha = mergeRequestSchema.parse(JSON.parse(asked.stdout)).sha;
  }
  const targetUrl = dashboardPage(subject.dashboardUrl, subject.delivery.id);
  const status = {
    state,
    name: checkName(subject.delivery.route),
    description: statusDescription(description),
    ...(targetUrl ? { target_url: targetUrl } : {}),
  };
  const outcome = await runCliApi(
    glab,
    [
      '--method',
      'POST',
      `${project}/statuses/${encodeURIComponent(sha)}`,
      '--header',
      'Content-Type: application/json',
      '--input',
      '-',
    ],
    JSON.stringify(status),
  );
  if (outcome.kind !== 'ok') throw cliApiError(glab, outcome);
}

export function startAltforgeCheck(
  subject: CheckSubject,
  settings: AltforgeSettings,
): Promise<void> {
  return postStatus(subject, settings, 'running', IN_PROGRESS_TITLE);
}

/** A review still queued: `pending`, with its place (`title`). */
export function showAltforgeQueued(
  subject: CheckSubject,
  settings: AltforgeSettings,
  title: string,
): Promise<void> {
  return postStatus(subject, settings, 'pending', title);
}

export function endAltforgeCheck(
  subject: CheckSubject,
  settings: AltforgeSettings,
  end: CheckEnd,
): Promise<void> {
  return postStatus(subject, settings, statusState(end.conclusion, 'altforge'), end.title);
}
