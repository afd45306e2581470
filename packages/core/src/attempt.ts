/**
 * One attempt at a journaled delivery: render → run (unless an earlier attempt already has the
 * answer) → deliver, then the outcome written to the store. Queues (the in-process pool, a
 * shared-queue worker) decide when to call it; this decides what an attempt is.
 */
import { addAccounting } from './agent-accounting.js';
import { tracedAttempt } from './attempt-trace.js';
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
  type ReviewConclusion,
} from './delivery.js';
import { errorMessage } from './errors.js';
import type { FindingCounts, FindingsJournal } from './findings.js';
import { outboundPlan } from './outbound-plan.js';
import { cleanRoutePayload, describeHiddenContent } from './hygiene.js';
import { outgoingRedactor, redactOutgoing } from './outgoing-redaction.js';
import type {
  Credentials,
  GatewayHooks,
  ReviewChunk,
  ReviewContext,
  RunProduced,
  RunResult,
} from './hooks.js';
import type { Logger } from './logger.js';
import { pullRequestOf } from './pull-request.js';
import type { Attempt } from './queue.js';
import { CHUNK_PROMPT_SEPARATOR, mergeChunkAnswers } from './review-chunks.js';
import { reviewValuesIn } from './review-values.js';
import { runRouteScript } from './route-script.js';
import { runDetails } from './run-details.js';
import {
  isRunLimitError,
  runLimitError,
  runLimitNotice,
  type ReviewProgress,
  type RunLimitError,
} from './run-limit.js';
import { routeSecrets, type RouteResolver } from './routes.js';
import type { Store } from './store.js';
import { traceStep } from './trace-scope.js';
import type { GatewayTracer } from './tracing.js';
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
  /** With `observability.otlp`: each attempt is a span of its delivery's trace. */
  tracer?: GatewayTracer;
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
  /** The row cannot start: gone (pruned, or never existed), or superseded while it waited. */
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

/**
 * Rejects after `seconds` with the timeout's run limit error (aborting the run), unless the
 * promise settles first.
 */
async function withTimeout<T>(
  promise: Promise<T>,
  seconds: number,
  what: string,
  abort: AbortController,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = runLimitError('timeout', seconds, `${what} timed out after ${seconds} s`);
      abort.abort(error);
      reject(error);
    }, seconds * 1000);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A run's result in the attempt: with `stoppedBy`, what it produced before a limit stopped it. */
type RanResult = RunResult & { stoppedBy?: RunLimitError; progress?: ReviewProgress };

/** Whether `produced` holds anything to deliver: text, or a line comment. */
function producedSomething(produced: RunProduced | undefined): produced is RunProduced {
  return (
    produced !== undefined && (produced.answer.trim() !== '' || produced.lineComments.length > 0)
  );
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
  const claimedAt = Date.now();
  const started = await deps.store.markRunning(id, claimedAt);
  if (!started) return { status: 'missing' };
  return deps.tracer
    ? tracedAttempt(deps.tracer, started, claimedAt, () => runAttempt(deps, started, interrupt))
    : runAttempt(deps, started, interrupt);
}

/** The attempt at a row `markRunning` just started. */
async function runAttempt(
  deps: AttemptDeps,
  started: DeliveryRecord,
  interrupt: AbortSignal,
): Promise<AttemptResult> {
  const { store, hooks } = deps;
  // What listeners are handed: the row as this attempt leaves it (the store's copy is not changed).
  let record: DeliveryRecord = started;
  // The queue's interrupt stops every step; a run's timeout stops only the run (`runAgent`), so a
  // partial review can still be delivered after it.
  const signal = interrupt;
  const log = deps.log.child({ route: record.route, delivery_id: record.deliveryId });
  const config = deps.config.current();
  // Who hears about this delivery's status changes (`extra.outbound`), under this attempt's config.
  const outbound = outboundPlan(config, record.route);
  const startedAt = Date.now();
  let target: string | null = null;
  let runMs: number | undefined;
  // Known once resolved: a failure for good is shown where the attempt showed its start.
  let knownRoute: RouteConfig | undefined;
  let credentials: Credentials | undefined;
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
    knownRoute = routeConfig;
    target = routeConfig.deliver;
    const agent = routeAgent(config.agent, routeConfig);
    let gateway = await gatewayValues(store, record, routeConfig);
    let answer = record.answer;
    let lineComments: LineComment[] = record.lineComments ?? [];
    let conclusion: ReviewConclusion | undefined = record.conclusion;
    credentials = await hooks.credentials.promise(
      {},
      { delivery: record, routeConfig, config, log, signal },
    );
    const startedState = { routeConfig, config, credentials, log, signal };
    const showStarted = (): Promise<void> =>
      showState(log, () => hooks.attemptStarted.promise({ ...startedState, delivery: record }));
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
        await traceStep('outcome', { 'webhook_gateway.status': status }, () =>
          store.markRefused(record.id, status, reason, Date.now(), outbound),
        );
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
      const script = routeConfig.script;
      if (script !== undefined) {
        const verdict = await traceStep('script', {}, () =>
          runRouteScript({
            home: deps.home,
            route: record.route,
            routeConfig: { ...routeConfig, script },
            event: record.event,
            deliveryId: record.deliveryId,
            payload: record.payload,
            secrets: routeSecrets(routeConfig, config),
            signal,
          }),
        );
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
      await showStarted();
      const base = routeConfig.prompt
        ? renderTemplate(routeConfig.prompt, context.payload, gateway)
        : renderDefaultPrompt(context.route, context.event, context.payload);
      // The route's runner on a rendered, framed prompt, within agent.timeout_s. With chunks it
      // runs once per chunk: what the earlier chunks spent is the base the runner's reports add to.
      let spentBefore: AgentAccounting | undefined;
      const prompts: string[] = [];
      // A limit's stop delivers what was produced (agent.on_limit: partial), never a stop of the
      // gateway: that run goes back to the queue.
      const deliversPartial = (error: unknown): error is RunLimitError =>
        agent.on_limit === 'partial' && isRunLimitError(error) && !interrupt.aborted;
      const runAgent = async (rendered: string): Promise<RanResult | undefined> => {
        const prompt = await traceStep('render', {}, () =>
          hooks.render.promise(rendered, {
            delivery: context,
            routeConfig,
            agent,
            home: deps.home,
            log,
          }),
        );
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
        // The run's own stop: its timeout ends the run, not the attempt, which may still deliver.
        const runStop = new AbortController();
        const forwardStop = (): void => runStop.abort(signal.reason);
        if (signal.aborted) forwardStop();
        else signal.addEventListener('abort', forwardStop, { once: true });
        let produced: RunProduced | undefined;
        let ended = false;
        let ran: RunResult | undefined;
        try {
          ran = await withTimeout(
            traceStep('agent run', { 'webhook_gateway.runner': agent.runner }, () =>
              runner.promise({
                prompt,
                delivery: record,
                routeConfig,
                agent,
                home: deps.home,
                credentials,
                log,
                signal: runStop.signal,
                reportAccounting: (accounting) => {
                  if (!spentAdded) spent = addAccounting(spentBefore ?? null, accounting);
                },
                reportProduced: (output) => {
                  // Once stopped (a timeout), what a run winding down reports is not its output.
                  if (!ended && !runStop.signal.aborted) produced = structuredClone(output);
                },
              }),
            ),
            agent.timeout_s,
            `agent run (${agent.runner})`,
            runStop,
          );
        } catch (error) {
          // What a stopped run produced is kept only when it can be delivered.
          if (!deliversPartial(error) || !producedSomething(produced)) throw error;
          runMs = (runMs ?? 0) + Date.now() - runStarted;
          spentBefore = spent;
          return { ...produced, stoppedBy: error };
        } finally {
          ended = true;
          signal.removeEventListener('abort', forwardStop);
        }
        runMs = (runMs ?? 0) + Date.now() - runStarted;
        if (ran?.accounting) spent = addAccounting(spentBefore ?? null, ran.accounting);
        spentBefore = spent;
        return ran;
      };
      const runChunks = async (chunks: readonly ReviewChunk[]): Promise<RanResult | undefined> => {
        const results: RanResult[] = [];
        let stoppedBy: RunLimitError | undefined;
        for (const [index, chunk] of chunks.entries()) {
          log.info(
            { chunk: index + 1, of: chunks.length, files: chunk.files.length },
            'review chunk',
          );
          const rendered = renderTemplate(routeConfig.prompt ?? '', context.payload, {
            ...gateway,
            diff: chunk.diff,
          });
          let ran: RanResult | undefined;
          try {
            ran = await runAgent(rendered);
          } catch (error) {
            // Stopped with nothing from this chunk: the earlier chunks' answers are the review.
            if (!deliversPartial(error) || results.length === 0) throw error;
            stoppedBy = error;
            break;
          }
          if (!ran) return undefined;
          results.push(ran);
          if (ran.stoppedBy) {
            stoppedBy = ran.stoppedBy;
            break;
          }
        }
        const merged = mergeChunkAnswers(chunks, results);
        if (!stoppedBy) return merged;
        // The chunks whose run ended; a stopped chunk's partial answer is in the review too.
        const stoppedInside = results.at(-1)?.stoppedBy !== undefined;
        const done = chunks.slice(0, results.length - (stoppedInside ? 1 : 0));
        const files = (list: readonly ReviewChunk[]): number =>
          list.reduce((sum, chunk) => sum + chunk.files.length, 0);
        return {
          ...merged,
          stoppedBy,
          progress: {
            chunks: {
              done: done.length,
              of: chunks.length,
              filesDone: files(done),
              filesOf: files(chunks),
            },
          },
        };
      };
      const chunks = review?.chunks !== undefined && review.chunks.length > 1 ? review.chunks : [];
      const result: RanResult | undefined =
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
      answer = withFooter(result.answer, review?.footer);
      addSpent();
      if (routeConfig.deliver_extra.details === true) {
        answer = withFooter(
          answer,
          runDetails({
            agent: record.agent,
            runner: agent.runner,
            runMs,
            range: review?.range,
            skippedFiles: review?.skippedFiles,
            deliveryId: record.deliveryId,
          }),
        );
      }
      lineComments = result.lineComments ?? [];
      conclusion = result.conclusion;
      const stoppedBy = result.stoppedBy;
      if (stoppedBy) {
        // A partial review says so first: which limit, and how far it got.
        const progress = result.progress ?? { ...(spent?.turns ? { turns: spent.turns } : {}) };
        answer = [runLimitNotice(stoppedBy, progress), answer.trim()]
          .filter((part) => part !== '')
          .join('\n\n');
        log.warn(
          { limit: stoppedBy.limit, err: stoppedBy.message, line_comments: lineComments.length },
          'agent stopped by a limit; delivering what it produced (agent.on_limit: partial)',
        );
      }
      // Redacted before it is journaled or sent: no target, and no reader of the journal, sees
      // a secret the agent wrote (a prompt-injected agent that read `env`).
      const redactor = outgoingRedactor(config, routeConfig, credentials, process.env);
      const outgoing = redactOutgoing(answer, lineComments, redactor);
      answer = outgoing.answer;
      lineComments = outgoing.lineComments;
      let redactions = outgoing.redactions;
      if (conclusion?.reason !== undefined) {
        const reason = redactor.redact(conclusion.reason);
        redactions += reason.count;
        if (reason.count > 0) conclusion = { ...conclusion, reason: reason.text };
      }
      if (redactions > 0) {
        safety = { ...safety, redactions };
        log.warn({ redactions }, 'secrets redacted from the answer');
      }
      const produced = {
        answer,
        ...(spent && record.agent ? { agent: record.agent } : {}),
        ...(lineComments.length > 0 ? { lineComments } : {}),
        ...(conclusion ? { conclusion } : {}),
        ...(stoppedBy ? { partial: true as const } : {}),
        ...(safety ? { safety } : {}),
      };
      record = { ...record, ...produced };
      // Committed before the target is called: after a crash there, the agent does not run again.
      await store.saveProgress(record.id, produced);
    } else await showStarted();
    if (isSilentAnswer(answer) && lineComments.length === 0) {
      // The agent chose to say nothing: the delivery ends well, and no target is called.
      await traceStep('outcome', { 'webhook_gateway.status': 'silent' }, () =>
        store.markDelivered(record.id, Date.now(), 'silent', outbound),
      );
      const silentConclusion = conclusion ?? { value: 'neutral' as const };
      await showState(log, () =>
        hooks.deliveryEnded.promise({
          ...startedState,
          delivery: record,
          status: 'silent',
          conclusion: silentConclusion,
        }),
      );
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
    await traceStep('deliver', { 'webhook_gateway.target': routeConfig.deliver }, () =>
      deliver.promise({
        // The one place the answer becomes text: targets without lines get the comments after it.
        answer: answerWithLineComments(answer, lineComments),
        summary: answer,
        lineComments,
        conclusion: conclusion ?? { value: 'neutral' },
        ...(record.orderKey !== null
          ? {
              findings: findingsJournal(store, record.orderKey, (counts) => {
                try {
                  hooks.findingsReviewed.call({
                    route: record.route,
                    target: routeConfig.deliver,
                    counts,
                  });
                } catch (error) {
                  log.warn({ err: errorMessage(error) }, 'a findings observer failed');
                }
              }),
            }
          : {}),
        delivery: record,
        routeConfig,
        extra: renderDeliverExtra(routeConfig.deliver_extra, record.payload, gateway),
        config,
        credentials,
        log,
        signal,
      }),
    );
    await traceStep('outcome', { 'webhook_gateway.status': 'delivered' }, () =>
      store.markDelivered(record.id, Date.now(), 'delivered', outbound),
    );
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
      await traceStep('outcome', { 'webhook_gateway.status': 'failed' }, () =>
        store.markFailed(record.id, message, now, outbound),
      );
      log.error({ attempt: record.attempts, err: message }, 'delivery failed for good');
      if (knownRoute) {
        const failed = { delivery: record, routeConfig: knownRoute, config, log, error: message };
        // The attempt's own signal may be the timeout's, already aborted: the check still ends.
        await showState(log, () =>
          hooks.deliveryEnded.promise({
            ...failed,
            status: 'failed',
            ...(credentials ? { credentials } : {}),
            signal: interrupt,
          }),
        );
      }
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
    await traceStep('outcome', { 'webhook_gateway.status': 'queued' }, () =>
      store.markRetry(record.id, message, now, nextAttemptAt, outbound),
    );
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
  const prepared = await traceStep('review context', {}, () =>
    deps.hooks.reviewContext.promise({
      delivery: at.record,
      routeConfig: at.routeConfig,
      review,
      wanted,
      since,
      credentials: at.credentials,
      config,
      log: deps.log.child({ route: at.record.route, delivery_id: at.record.deliveryId }),
      signal,
    }),
  );
  if (prepared) return prepared;
  const sender = at.record.authScheme === undefined ? '' : ` "${at.record.authScheme}"`;
  const missing = `(no installed plugin prepares a review for this sender's${sender} deliveries)`;
  return { values: Object.fromEntries([...wanted].map((value) => [value, missing])) };
}

/**
 * Runs a hook that shows the delivery's state on the forge: its failure is logged, never the
 * attempt's (the review matters more than its check).
 */
async function showState(log: Logger, show: () => Promise<void>): Promise<void> {
  try {
    await show();
  } catch (error) {
    log.warn({ err: errorMessage(error) }, "could not show the delivery's state on the forge");
  }
}

/** The journal's findings of one route's pull or merge request, as a review target reads them. */
function findingsJournal(
  store: Store,
  orderKey: string,
  report: (counts: FindingCounts) => void,
): FindingsJournal {
  return {
    read: () => store.findings(orderKey),
    save: (findings) => store.saveFindings(orderKey, findings),
    report,
  };
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
