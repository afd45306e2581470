/**
 * One attempt at a journaled delivery: render → run (unless an earlier attempt already has the
 * answer) → deliver, then the outcome written to the store. Queues (the in-process pool, a
 * shared-queue worker) decide when to call it; this decides what an attempt is.
 */
import { addAccounting } from './agent-accounting.js';
import type { LiveConfig } from './config/live.js';
import { deliveryCommand } from './comment-events.js';
import { NO_RUNNER, reviewForRoute, routeAgent, type RouteConfig } from './config/schema.js';
import {
  answerWithLineComments,
  isSilentAnswer,
  type AgentAccounting,
  type DeliveryRecord,
  type DeliverySafety,
  type LineComment,
  type NotRunStatus,
} from './delivery.js';
import { errorMessage } from './errors.js';
import { outboundPlan } from './outbound-plan.js';
import { cleanRoutePayload, describeHiddenContent } from './hygiene.js';
import { outgoingRedactor, redactOutgoing } from './outgoing-redaction.js';
import type { Credentials, GatewayHooks, ReviewChunk, ReviewContext, RunResult } from './hooks.js';
import type { Logger } from './logger.js';
import { pullRequestOf } from './pull-request.js';
import type { Attempt } from './queue.js';
import { CHUNK_PROMPT_SEPARATOR, mergeChunkAnswers } from './review-chunks.js';
import { reviewValuesIn } from './review-values.js';
import { runRouteScript } from './route-script.js';
import { routeSecrets, type RouteResolver } from './routes.js';
import type { Store } from './store.js';
import {
  renderDefaultPrompt,
  renderDeliverExtra,
  rawPayloadText,
  renderTemplate,
  type GatewayValues,
} from './template.js';

export interface AttemptDeps {
  store: Store;
  hooks: GatewayHooks;
  /** Read on every attempt, so a reloaded config applies to the next one. */
  config: LiveConfig;
  resolveRoute: RouteResolver;
  home: string;
  log: Logger;
  random?: () => number;
}

/** How one attempt ended, with the row as the attempt left it. */
export type AttemptResult =
  | { status: 'delivered'; record: DeliveryRecord }
  /** The answer was exactly `[SILENT]`: nothing sent, final. */
  | { status: 'silent'; record: DeliveryRecord }
  | { status: 'retry'; record: DeliveryRecord; error: string; nextAttemptAt: number }
  | { status: 'failed'; record: DeliveryRecord; error: string }
  /**
   * Ended before the agent ran (the commenter's permission, a budget, the route's script):
   * final, no tokens.
   */
  | { status: NotRunStatus; record: DeliveryRecord; reason: string }
  /** Cut short by a stop: left `running` in the journal, requeued at the next start. */
  | { status: 'interrupted'; record: DeliveryRecord }
  /** The row is gone (pruned, or never existed). */
  | { status: 'missing' };

/** An error a retry cannot fix (a malformed target, say): the delivery fails at once. */
function isPermanentError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { retryable?: unknown }).retryable === false
  );
}

/** The delay before attempt `attempt + 1`: exponential, capped at 10 minutes, with jitter. */
function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 600_000);
  return Math.round(exponential * (0.5 + random() * 0.5));
}

/** Rejects after `ms` with a timeout error (aborting the run), unless the promise settles first. */
async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  what: string,
  abort: AbortController,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`${what} timed out after ${ms / 1000} s`);
      abort.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The queues' view of `attemptDelivery`: one function from delivery id to outcome. */
export function createAttempt(deps: AttemptDeps): Attempt {
  return (id, signal) => attemptDelivery(deps, id, signal);
}

/**
 * Makes one attempt at delivery `id` and records its outcome. Aborting `interrupt` (the queue
 * stopping) leaves the row `running` for the next start; a timeout is a failure like any other.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  id: string,
  interrupt: AbortSignal,
): Promise<AttemptResult> {
  const { store, hooks } = deps;
  const started = await store.markRunning(id, Date.now());
  if (!started) return { status: 'missing' };
  // What listeners are handed: the row as this attempt leaves it (the store's copy is not changed).
  let record: DeliveryRecord = started;
  // One controller per attempt, aborted by the queue's interrupt or the run's timeout: cheaper
  // than AbortSignal.any, which costs every attempt a weakly held composite signal.
  const timeout = new AbortController();
  const forwardInterrupt = (): void => timeout.abort(interrupt.reason);
  if (interrupt.aborted) forwardInterrupt();
  else interrupt.addEventListener('abort', forwardInterrupt, { once: true });
  const signal = timeout.signal;
  const log = deps.log.child({ route: record.route, delivery_id: record.deliveryId });
  const config = deps.config.current();
  // Who hears about this delivery's status changes (`extra.outbound`), under this attempt's config.
  const outbound = outboundPlan(config, record.route);
  const startedAt = Date.now();
  let target: string | null = null;
  let runMs: number | undefined;
  // What the agent spent in this attempt, as its runner last reported; added to the row's total
  // (earlier attempts) once, when the run ends, whether it answered or not. Reports after that
  // (a run still winding down after a timeout) change nothing.
  let spent: AgentAccounting | undefined;
  let spentAdded = false;
  // What this attempt took out of the payload and the answer (journaled, and on the metrics).
  let safety: DeliverySafety | undefined;
  const addSpent = (): void => {
    spentAdded = true;
    if (spent) record = { ...record, agent: addAccounting(started.agent, spent) };
  };
  // The rendered prompt is written without waiting: the store commits writes in order, so it is
  // in the journal no later than the answer or outcome written after it, and the run starts
  // without a commit round trip. A failed save is logged; it never changes the outcome.
  const saves: Promise<void>[] = [];
  const saveSafety = (progress: DeliverySafety): void => {
    saves.push(
      store.saveProgress(record.id, { safety: progress }).catch((error: unknown) => {
        log.error({ err: errorMessage(error) }, 'could not save what hygiene removed');
      }),
    );
  };
  const savePrompt = (progress: { prompt: string }): void => {
    saves.push(
      store.saveProgress(record.id, progress).catch((error: unknown) => {
        log.error({ err: errorMessage(error) }, 'could not save the rendered prompt');
      }),
    );
  };
  try {
    const routeConfig = await deps.resolveRoute(record.route);
    if (!routeConfig)
      throw Object.assign(new Error(`route "${record.route}" no longer exists`), {
        retryable: false,
      });
    target = routeConfig.deliver;
    const agent = routeAgent(config.agent, routeConfig);
    let gateway = await gatewayValues(store, record, routeConfig);
    let answer = record.answer;
    let lineComments: LineComment[] = record.lineComments ?? [];
    const credentials = await hooks.credentials.promise(
      {},
      { delivery: record, routeConfig, config, log, signal },
    );
    if (answer === null) {
      const refusal = await hooks.admit.promise({
        delivery: record,
        routeConfig,
        agent,
        config,
        credentials,
        log,
        signal,
      });
      const endUnrun = async (status: NotRunStatus, reason: string): Promise<AttemptResult> => {
        await store.markRefused(record.id, status, reason, Date.now(), outbound);
        log.info({ status, reason }, 'not run');
        const ended: DeliveryRecord = { ...record, status };
        hooks.attemptFinished.call({
          record: ended,
          target,
          status,
          error: reason,
          durationMs: Date.now() - startedAt,
          runMs: undefined,
          spent: undefined,
        });
        return { status, record: ended, reason };
      };
      if (refusal) return await endUnrun(refusal.status, refusal.reason);
      // The route's script may replace the payload for the template, the runner and the target.
      let context = record;
      if (routeConfig.script !== undefined) {
        const verdict = await runRouteScript({
          home: deps.home,
          route: record.route,
          routeConfig: { ...routeConfig, script: routeConfig.script },
          event: record.event,
          deliveryId: record.deliveryId,
          payload: record.payload,
          secrets: routeSecrets(routeConfig, config),
          signal,
        });
        if (verdict.kind === 'skip') return await endUnrun('skipped', 'script');
        context = { ...record, payload: verdict.payload };
        record = context;
        gateway = await gatewayValues(store, record, routeConfig);
      }
      // Hidden content out of the payload before the template, the command's words and the
      // prepared context see it; the journal keeps the payload as it came.
      const hidden = cleanRoutePayload(config, routeConfig, context.payload);
      if (hidden.notes.length > 0) {
        context = { ...context, payload: hidden.payload };
        record = context;
        gateway = await gatewayValues(store, record, routeConfig);
        safety = { ...safety, hidden: hidden.notes };
        log.warn(
          { hidden: hidden.notes.map(describeHiddenContent) },
          'hidden content removed from the payload',
        );
        saveSafety(safety);
      }
      const review = await prepareReview(
        deps,
        { record, routeConfig, credentials, gateway },
        signal,
      );
      if (review?.skip !== undefined)
        return await endUnrun('skipped', `repo_config: ${review.skip}`);
      if (review) gateway = { ...gateway, ...review.values };
      const base = routeConfig.prompt
        ? renderTemplate(routeConfig.prompt, context.payload, gateway)
        : renderDefaultPrompt(context.route, context.event, context.payload);
      // The route's runner on a rendered, framed prompt, within agent.timeout_s. With chunks it
      // runs once per chunk: what the earlier chunks spent is the base the runner's reports add to.
      let spentBefore: AgentAccounting | undefined;
      const prompts: string[] = [];
      const runAgent = async (rendered: string): Promise<RunResult | undefined> => {
        const prompt = await hooks.render.promise(rendered, {
          delivery: context,
          routeConfig,
          agent,
          home: deps.home,
          log,
        });
        prompts.push(prompt);
        savePrompt({ prompt: prompts.join(CHUNK_PROMPT_SEPARATOR) });
        const runner = hooks.run.get(agent.runner);
        if (!runner?.isUsed()) {
          throw Object.assign(
            new Error(`no agent runner named "${agent.runner}" is installed (agent.runner)`),
            { retryable: false },
          );
        }
        log.info({ attempt: record.attempts, runner: agent.runner }, 'running agent');
        const runStarted = Date.now();
        const ran = await withTimeout(
          runner.promise({
            prompt,
            delivery: record,
            routeConfig,
            agent,
            home: deps.home,
            credentials,
            log,
            signal,
            reportAccounting: (accounting) => {
              if (!spentAdded) spent = addAccounting(spentBefore ?? null, accounting);
            },
          }),
          agent.timeout_s * 1000,
          `agent run (${agent.runner})`,
          timeout,
        );
        runMs = (runMs ?? 0) + Date.now() - runStarted;
        if (ran?.accounting) spent = addAccounting(spentBefore ?? null, ran.accounting);
        spentBefore = spent;
        return ran;
      };
      const runChunks = async (chunks: readonly ReviewChunk[]): Promise<RunResult | undefined> => {
        const results: RunResult[] = [];
        for (const [index, chunk] of chunks.entries()) {
          log.info(
            { chunk: index + 1, of: chunks.length, files: chunk.files.length },
            'review chunk',
          );
          const rendered = renderTemplate(routeConfig.prompt ?? '', context.payload, {
            ...gateway,
            diff: chunk.diff,
          });
          const ran = await runAgent(rendered);
          if (!ran) return undefined;
          results.push(ran);
        }
        return mergeChunkAnswers(chunks, results);
      };
      const chunks = review?.chunks !== undefined && review.chunks.length > 1 ? review.chunks : [];
      const result =
        agent.runner === NO_RUNNER
          ? notifyOnly(base, savePrompt)
          : chunks.length > 0
            ? await runChunks(chunks)
            : await runAgent(base);
      if (!result) {
        throw Object.assign(new Error(`agent runner "${agent.runner}" gave no answer`), {
          retryable: false,
        });
      }
      addSpent();
      // Redacted before it is journaled or sent: no target, and no reader of the journal, sees
      // a secret the agent wrote (a prompt-injected agent that read `env`).
      const outgoing = redactOutgoing(
        withFooter(result.answer, review?.footer),
        result.lineComments ?? [],
        outgoingRedactor(config, routeConfig, credentials, process.env),
      );
      answer = outgoing.answer;
      lineComments = outgoing.lineComments;
      if (outgoing.redactions > 0) {
        safety = { ...safety, redactions: outgoing.redactions };
        log.warn({ redactions: outgoing.redactions }, 'secrets redacted from the answer');
      }
      const produced = {
        answer,
        ...(spent && record.agent ? { agent: record.agent } : {}),
        ...(lineComments.length > 0 ? { lineComments } : {}),
        ...(safety ? { safety } : {}),
      };
      record = { ...record, ...produced };
      // Committed before the target is called: after a crash there, the agent does not run again.
      await store.saveProgress(record.id, produced);
    }
    if (isSilentAnswer(answer) && lineComments.length === 0) {
      // The agent chose to say nothing: the delivery ends well, and no target is called.
      await store.markDelivered(record.id, Date.now(), 'silent', outbound);
      await Promise.all(saves);
      const silent: DeliveryRecord = { ...record, status: 'silent' };
      log.info({ attempt: record.attempts }, 'silent: the answer was [SILENT]; nothing sent');
      hooks.attemptFinished.call({
        record: silent,
        target,
        status: 'silent',
        durationMs: Date.now() - startedAt,
        runMs,
        spent,
        ...(safety ? { safety } : {}),
      });
      return { status: 'silent', record: silent };
    }
    const deliver = hooks.deliver.get(routeConfig.deliver);
    if (!deliver?.isUsed()) {
      throw Object.assign(
        new Error(`no delivery target named "${routeConfig.deliver}" is installed`),
        { retryable: false },
      );
    }
    await deliver.promise({
      // The one place the answer becomes text: targets without lines get the comments after it.
      answer: answerWithLineComments(answer, lineComments),
      summary: answer,
      lineComments,
      delivery: record,
      routeConfig,
      extra: renderDeliverExtra(routeConfig.deliver_extra, record.payload, gateway),
      config,
      credentials,
      log,
      signal,
    });
    await store.markDelivered(record.id, Date.now(), 'delivered', outbound);
    await Promise.all(saves);
    log.info({ target: routeConfig.deliver, attempt: record.attempts }, 'delivered');
    hooks.attemptFinished.call({
      record,
      target,
      status: 'delivered',
      durationMs: Date.now() - startedAt,
      runMs,
      spent,
      ...(safety ? { safety } : {}),
    });
    return { status: 'delivered', record };
  } catch (error) {
    await Promise.all(saves);
    if (!spentAdded) {
      // A run that failed, timed out or was stopped still spent its tokens: they count.
      addSpent();
      const agentTotal = record.agent;
      if (spent && agentTotal) {
        await store.saveProgress(record.id, { agent: agentTotal }).catch((saveError: unknown) => {
          log.error({ err: errorMessage(saveError) }, 'could not save what the agent spent');
        });
      }
    }
    if (interrupt.aborted) return { status: 'interrupted', record };
    const message = errorMessage(error);
    const now = Date.now();
    const durationMs = now - startedAt;
    if (record.attempts >= record.maxAttempts || isPermanentError(error)) {
      await store.markFailed(record.id, message, now, outbound);
      log.error({ attempt: record.attempts, err: message }, 'delivery failed for good');
      hooks.attemptFinished.call({
        record,
        target,
        status: 'failed',
        error: message,
        durationMs,
        runMs,
        spent,
        ...(safety ? { safety } : {}),
      });
      return { status: 'failed', record, error: message };
    }
    const nextAttemptAt =
      now +
      backoffDelay(record.attempts, config.platforms.webhook.extra.retry_backoff_ms, deps.random);
    await store.markRetry(record.id, message, now, nextAttemptAt, outbound);
    log.warn(
      { attempt: record.attempts, err: message, retry_in_ms: nextAttemptAt - now },
      'attempt failed; will retry',
    );
    hooks.attemptFinished.call({
      record,
      target,
      status: 'retry',
      error: message,
      durationMs,
      runMs,
      spent,
      ...(safety ? { safety } : {}),
    });
    return { status: 'retry', record, error: message, nextAttemptAt };
  } finally {
    interrupt.removeEventListener('abort', forwardInterrupt);
  }
}

/**
 * The review context the route's template names, prepared by the forge plugin that knows the
 * delivery's sender; undefined when the template names none or the event is not about a pull or
 * merge request. No plugin answering is not an error: the values then say so, so a review never
 * looks complete without its diff.
 */
async function prepareReview(
  deps: AttemptDeps,
  at: {
    record: DeliveryRecord;
    routeConfig: RouteConfig;
    credentials: Credentials;
    gateway: GatewayValues;
  },
  signal: AbortSignal,
): Promise<ReviewContext | undefined> {
  const wanted = reviewValuesIn(at.routeConfig.prompt);
  if (wanted.size === 0 || !pullRequestOf(at.record.payload, at.record.authScheme))
    return undefined;
  const config = deps.config.current();
  const review = reviewForRoute(config.review, at.routeConfig.review);
  const previous = at.gateway.previous_head_sha;
  const since = review.incremental
    ? typeof previous === 'string' && previous !== ''
      ? previous
      : await previousHeadSha(deps.store, at.record)
    : '';
  const prepared = await deps.hooks.reviewContext.promise({
    delivery: at.record,
    routeConfig: at.routeConfig,
    review,
    wanted,
    since,
    credentials: at.credentials,
    config,
    log: deps.log.child({ route: at.record.route, delivery_id: at.record.deliveryId }),
    signal,
  });
  if (prepared) return prepared;
  const sender = at.record.authScheme === undefined ? '' : ` "${at.record.authScheme}"`;
  const missing = `(no installed plugin prepares a review for this sender's${sender} deliveries)`;
  return { values: Object.fromEntries([...wanted].map((value) => [value, missing])) };
}

/** The answer with the review's footer after it; a silent answer stays silent. */
function withFooter(answer: string, footer: string | undefined): string {
  if (footer === undefined || footer === '' || isSilentAnswer(answer)) return answer;
  return `${answer.trimEnd()}\n\n${footer}`;
}

/** A notify-only route's answer (`runner: none`): the rendered template itself, no model. */
function notifyOnly(prompt: string, savePrompt: (progress: { prompt: string }) => void): RunResult {
  savePrompt({ prompt });
  return { answer: prompt };
}

const PREVIOUS_HEAD_SHA = '{_gateway.previous_head_sha}';

/** Whether the route's prompt or deliver_extra names `{_gateway.previous_head_sha}`. */
function usesPreviousHeadSha(routeConfig: RouteConfig): boolean {
  if (routeConfig.prompt?.includes(PREVIOUS_HEAD_SHA)) return true;
  return Object.values(routeConfig.deliver_extra).some(
    (value) => typeof value === 'string' && value.includes(PREVIOUS_HEAD_SHA),
  );
}

/**
 * The head SHA of this route's newest delivered delivery for the same pull or merge request, or
 * '' (none yet, or an event not about one). Asked of the store only when a template uses it.
 */
async function previousHeadSha(store: Store, record: DeliveryRecord): Promise<string> {
  if (record.orderKey === null) return '';
  const previous = await store.lastDelivered(record.orderKey, record.id);
  return previous ? (pullRequestOf(previous.payload, previous.authScheme)?.headSha ?? '') : '';
}

/** The `{_gateway.…}` template values of a delivery: what the gateway knows, not the payload. */
export async function gatewayValues(
  store: Store,
  record: DeliveryRecord,
  routeConfig: RouteConfig,
): Promise<GatewayValues> {
  const command = deliveryCommand(routeConfig.commands ?? [], record.event, record.payload);
  return {
    route: record.route,
    delivery_id: record.deliveryId,
    raw: () => rawPayloadText(record.payload),
    previous_head_sha: usesPreviousHeadSha(routeConfig) ? await previousHeadSha(store, record) : '',
    coalesced: String(record.coalesced ?? 0),
    // Only on a command route: elsewhere the placeholders stay as written, like unknown keys.
    ...(command ? { 'command.name': command.name, 'command.args': command.args } : {}),
  };
}
