/**
 * The review's state on the forge, through `gh api`: with `platforms.forge.app`, a check run on
 * the head commit (in progress, then completed with the annotations in batches of 50); with a
 * personal token, which cannot create check runs, a commit status (pending, then success or
 * failure). Check runs are found again by their `external_id`, the delivery's journal id, so a
 * restarted gateway completes the runs of attempts that died.
 */
import { pullRequestOf, type DeliveryRecord, type LineComment } from '@webhook-gateway/core';
import { z } from 'zod';
import {
  batches,
  checkName,
  dashboardPage,
  IN_PROGRESS_TITLE,
  statusDescription,
  statusState,
  type CheckEnd,
} from './check-output.js';
import { cliApiError, runCliApi, type CliApiContext } from './cli-api.js';
import { diffLines } from './deliver-forge-review.js';
import { FORGE_PROFILE, forgeEnv, forgeHostOf, forgeSecrets } from './forge-cli.js';
import { resolveForgePullRequest, type ForgePullRequest } from './forge-target.js';
import type { CheckSubject } from './check-subject.js';
import { splitByDiff } from './review-lines.js';
import type { ForgeSettings } from './settings.js';

/** One line of `--jq '.check_runs[] | {id, external_id, status}'`. */
const checkRunSchema = z.object({
  id: z.number(),
  external_id: z.string().nullish(),
  status: z.string(),
});

interface ForgeCheck {
  gh: CliApiContext;
  pullRequest: ForgePullRequest;
  sha: string;
  name: string;
  delivery: DeliveryRecord;
  /** Check runs (App) or commit statuses (personal token). */
  checkRuns: boolean;
  targetUrl: string | undefined;
}

async function api(check: ForgeCheck, args: string[], body?: unknown): Promise<string> {
  const outcome = await runCliApi(
    check.gh,
    body === undefined ? args : [...args, '--input', '-'],
    body === undefined ? '' : JSON.stringify(body),
  );
  if (outcome.kind !== 'ok') throw cliApiError(check.gh, outcome);
  return outcome.stdout;
}

/** The head commit: the payload's, else the pull request's as the forge says now. */
async function headSha(
  gh: CliApiContext,
  subject: CheckSubject,
  pullRequest: ForgePullRequest,
): Promise<string> {
  const fromPayload = pullRequestOf(subject.delivery.payload, 'forge')?.headSha;
  if (fromPayload) return fromPayload;
  const path = `repos/${pullRequest.repo}/pulls/${pullRequest.prNumber}`;
  const outcome = await runCliApi(gh, [path, '--jq', '.head.sha']);
  if (outcome.kind !== 'ok') throw cliApiError(gh, outcome);
  const sha = outcome.stdout.trim();
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) throw new Error(`gh api ${path} answered no head commit`);
  return sha;
}

async function forgeCheck(subject: CheckSubject, settings: ForgeSettings): Promise<ForgeCheck> {
  const target = subject.target;
  const pullRequest = resolveForgePullRequest(subject.extra, subject.delivery.payload, target);
  const env = forgeEnv(settings, subject.credentials);
  const gh: CliApiContext = {
    profile: { ...FORGE_PROFILE, target, action: 'api' },
    cli: settings.cli,
    env,
    host: forgeHostOf(settings) ?? FORGE_PROFILE.defaultHost,
    timeoutS: settings.timeout_s,
    subject: `the check of pull request #${pullRequest.prNumber} of ${pullRequest.repo}`,
    secrets: forgeSecrets(env),
    signal: subject.signal,
  };
  return {
    gh,
    pullRequest,
    sha: await headSha(gh, subject, pullRequest),
    name: checkName(subject.delivery.route),
    delivery: subject.delivery,
    checkRuns: settings.app !== undefined,
    targetUrl: dashboardPage(subject.dashboardUrl, subject.delivery.id),
  };
}

/** This delivery's check runs on the head commit that are not completed, newest first. */
async function openRuns(check: ForgeCheck): Promise<number[]> {
  const { repo } = check.pullRequest;
  const stdout = await api(check, [
    '--paginate',
    `repos/${repo}/commits/${check.sha}/check-runs?check_name=${encodeURIComponent(check.name)}&filter=all`,
    '--jq',
    '.check_runs[] | {id, external_id, status}',
  ]);
  const runs = stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => checkRunSchema.parse(JSON.parse(line)))
    .filter((run) => run.external_id === check.delivery.id && run.status !== 'completed');
  return runs.map((run) => run.id).sort((a, b) => b - a);
}

function postStatus(check: ForgeCheck, state: string, description: string): Promise<string> {
  const { repo } = check.pullRequest;
  return api(check, ['--method', 'POST', `repos/${repo}/statuses/${check.sha}`], {
    state,
    context: check.name,
    description: statusDescription(description),
    ...(check.targetUrl ? { target_url: check.targetUrl } : {}),
  });
}

/**
 * Shows the review's state before it ends: `queued` (with its place) or `in_progress`. A check
 * run of this delivery that is open already (queued, or left by an earlier attempt) is updated,
 * else one is created; with a personal token, a `pending` commit status says the same.
 */
async function showOpenState(
  check: ForgeCheck,
  status: 'queued' | 'in_progress',
  title: string,
  summary: string,
): Promise<void> {
  if (!check.checkRuns) {
    await postStatus(check, 'pending', title);
    return;
  }
  const { repo } = check.pullRequest;
  const output = { title, summary };
  const started = status === 'in_progress' ? { started_at: new Date().toISOString() } : {};
  const [open] = await openRuns(check);
  if (open !== undefined) {
    await api(check, ['--method', 'PATCH', `repos/${repo}/check-runs/${open}`], {
      status,
      ...started,
      output,
    });
    return;
  }
  await api(check, ['--method', 'POST', `repos/${repo}/check-runs`], {
    name: check.name,
    head_sha: check.sha,
    status,
    external_id: check.delivery.id,
    ...started,
    ...(check.targetUrl ? { details_url: check.targetUrl } : {}),
    output,
  });
}

/** Marks the review in progress: its check run (created, or the open one updated) or `pending`. */
export async function startForgeCheck(
  subject: CheckSubject,
  settings: ForgeSettings,
): Promise<void> {
  const check = await forgeCheck(subject, settings);
  await showOpenState(
    check,
    'in_progress',
    IN_PROGRESS_TITLE,
    `Delivery \`${check.delivery.deliveryId}\`, attempt ${check.delivery.attempts}.`,
  );
}

/** Marks the review queued, with its place (`title`): a `queued` check run or `pending`. */
export async function showForgeQueued(
  subject: CheckSubject,
  settings: ForgeSettings,
  title: string,
  summary: string,
): Promise<void> {
  await showOpenState(await forgeCheck(subject, settings), 'queued', title, summary);
}

/**
 * Completes the review's check: every open check run of the delivery (one created completed when
 * none is open), the annotations 50 per request, or the final commit status.
 */
export async function endForgeCheck(
  subject: CheckSubject,
  settings: ForgeSettings,
  end: CheckEnd,
): Promise<void> {
  const check = await forgeCheck(subject, settings);
  if (!check.checkRuns) {
    await postStatus(check, statusState(end.conclusion, 'forge'), end.title);
    return;
  }
  const { repo } = check.pullRequest;
  const [first = [], ...rest] = batches(end.annotations);
  const output = { title: end.title, summary: end.summary };
  const completed = {
    status: 'completed',
    conclusion: end.conclusion,
    completed_at: new Date().toISOString(),
  };
  const [newest, ...older] = await openRuns(check);
  let id = newest;
  if (id === undefined) {
    const created = await api(
      check,
      ['--method', 'POST', `repos/${repo}/check-runs`, '--jq', '.id'],
      {
        name: check.name,
        head_sha: check.sha,
        external_id: check.delivery.id,
        ...completed,
        ...(check.targetUrl ? { details_url: check.targetUrl } : {}),
        output: { ...output, annotations: first },
      },
    );
    id = Number(created.trim());
  } else {
    await api(check, ['--method', 'PATCH', `repos/${repo}/check-runs/${id}`], {
      ...completed,
      output: { ...output, annotations: first },
    });
  }
  // The forge adds each update's annotations to the run's.
  for (const annotations of rest) {
    await api(check, ['--method', 'PATCH', `repos/${repo}/check-runs/${id}`], {
      output: { ...output, annotations },
    });
  }
  // Runs of earlier attempts that died: ended the same way, so none stays in progress.
  for (const stale of older) {
    await api(check, ['--method', 'PATCH', `repos/${repo}/check-runs/${stale}`], {
      ...completed,
      output,
    });
  }
}

/**
 * Of `comments`, those the pull request's diff shows, which a check run takes as annotations
 * (the others go into its summary). A commit status shows none, so nothing is asked for it.
 */
export async function commentsInDiff(
  subject: CheckSubject,
  settings: ForgeSettings,
  comments: readonly LineComment[],
): Promise<readonly LineComment[]> {
  if (settings.app === undefined || comments.length === 0) return comments;
  const check = await forgeCheck(subject, settings);
  return splitByDiff(comments, await diffLines(check.gh, check.pullRequest)).inDiff;
}
