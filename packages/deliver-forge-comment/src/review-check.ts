/**
 * `deliver_extra.check: true` on the four comment targets: the review's state shown on the
 * forge, queued with its place while it waits (`deliveryWaiting`), in progress when the attempt
 * starts, ended when it is delivered, silent, or failed for good (or died with the gateway). A
 * check run with the App, else a commit status. The check never costs the review: a failure to
 * show it is logged (`attemptStarted`, `deliveryWaiting` and `deliveryEnded` are logged by core;
 * after a delivered review, here), so a review is never posted twice.
 */
import {
  errorMessage,
  renderDeliverExtra,
  type DeliverRequest,
  type DeliveryEndedRequest,
  type DeliveryStateRequest,
  type DeliveryWaitingRequest,
  type LineComment,
  waitReasonText,
} from '@webhook-gateway/core';
import {
  checkIsOn,
  deliveredCheck,
  failedCheck,
  queuedTitle,
  silentCheck,
  type CheckEnd,
} from './check-output.js';
import type { CheckSubject } from './check-subject.js';
import type { AltforgeSettings, ForgeSettings } from './settings.js';
import {
  ALTFORGE_REVIEW_TARGET,
  ALTFORGE_TARGET,
  FORGE_REVIEW_TARGET,
  FORGE_TARGET,
} from './target-names.js';

interface Platforms {
  forge: ForgeSettings;
  altforge: AltforgeSettings;
}

const FORGE_TARGETS: readonly string[] = [FORGE_TARGET, FORGE_REVIEW_TARGET];
const ALTFORGE_TARGETS: readonly string[] = [ALTFORGE_TARGET, ALTFORGE_REVIEW_TARGET];

/** Whether a route's target is one of this plugin's and it asks for a check. */
export function routeShowsCheck(routeConfig: DeliveryStateRequest['routeConfig']): boolean {
  const target = routeConfig.deliver;
  return (
    (FORGE_TARGETS.includes(target) || ALTFORGE_TARGETS.includes(target)) &&
    checkIsOn(routeConfig.deliver_extra)
  );
}

/** The subject of a delivered review's check (its `deliver_extra` rendered by core). */
export function subjectForDelivery(request: DeliverRequest): CheckSubject {
  return subjectOf(request, request.extra);
}

function subjectOf(
  request: DeliveryStateRequest | DeliverRequest,
  extra: Record<string, unknown>,
): CheckSubject {
  return {
    target: request.routeConfig.deliver,
    delivery: request.delivery,
    extra,
    credentials: request.credentials,
    dashboardUrl: request.config.platforms.webhook.extra.admin?.public_url,
    signal: request.signal,
  };
}

async function start(subject: CheckSubject, platforms: Platforms): Promise<void> {
  if (FORGE_TARGETS.includes(subject.target)) {
    const { startForgeCheck } = await import('./forge-check.js');
    await startForgeCheck(subject, platforms.forge);
  } else {
    const { startAltforgeCheck } = await import('./altforge-check.js');
    await startAltforgeCheck(subject, platforms.altforge);
  }
}

async function end(subject: CheckSubject, platforms: Platforms, ending: CheckEnd): Promise<void> {
  if (FORGE_TARGETS.includes(subject.target)) {
    const { endForgeCheck } = await import('./forge-check.js');
    await endForgeCheck(subject, platforms.forge, ending);
  } else {
    const { endAltforgeCheck } = await import('./altforge-check.js');
    await endAltforgeCheck(subject, platforms.altforge, ending);
  }
}

/** `attemptStarted`: the check in progress. The templates see the payload only. */
export async function startCheck(
  request: DeliveryStateRequest,
  platforms: Platforms,
): Promise<void> {
  const extra = renderDeliverExtra(request.routeConfig.deliver_extra, request.delivery.payload);
  await start(subjectOf(request, extra), platforms);
}

/**
 * `deliveryWaiting`: the check queued, with the delivery's place in its route's queue ("Queued,
 * 2nd") and, on a check run, why it waits.
 */
export async function showQueuedCheck(
  request: DeliveryWaitingRequest,
  platforms: Platforms,
): Promise<void> {
  const extra = renderDeliverExtra(request.routeConfig.deliver_extra, request.delivery.payload);
  const subject = subjectOf({ ...request, credentials: await request.credentials() }, extra);
  const title = queuedTitle(request.standing);
  if (FORGE_TARGETS.includes(subject.target)) {
    const { showForgeQueued } = await import('./forge-check.js');
    const waits = request.standing.reasons.map((reason) => `- ${waitReasonText(reason)}`);
    const summary = `Delivery \`${request.delivery.deliveryId}\` waits:\n\n${waits.join('\n')}`;
    await showForgeQueued(subject, platforms.forge, title, summary);
  } else {
    const { showAltforgeQueued } = await import('./altforge-check.js');
    await showAltforgeQueued(subject, platforms.altforge, title);
  }
}

/** `deliveryEnded`: a failed delivery's check fails with its error; a silent one concludes. */
export async function endCheckWithoutReview(
  request: DeliveryEndedRequest,
  platforms: Platforms,
): Promise<void> {
  const extra = renderDeliverExtra(request.routeConfig.deliver_extra, request.delivery.payload);
  const ending =
    request.status === 'failed' ? failedCheck(request.error) : silentCheck(request.conclusion);
  await end(subjectOf(request, extra), platforms, ending);
}

/**
 * After a delivered review: the check ends with the agent's conclusion, the comments `onLines`
 * gives as annotations and the others in the summary. A failure is logged, not thrown: the
 * review is out, and a retry would post it again.
 */
export async function endCheckAfterReview(
  request: DeliverRequest,
  platforms: Platforms,
  onLines: (comments: readonly LineComment[]) => Promise<readonly LineComment[]>,
): Promise<void> {
  if (!checkIsOn(request.extra)) return;
  try {
    const placed = await onLines(request.lineComments);
    const moved = request.lineComments.filter((comment) => !placed.includes(comment));
    const ending = deliveredCheck(request.summary, request.conclusion, placed, moved);
    await end(subjectForDelivery(request), platforms, ending);
  } catch (error) {
    request.log.warn(
      { target: request.routeConfig.deliver, err: errorMessage(error) },
      "could not complete the review's check; the review itself was delivered",
    );
  }
}
