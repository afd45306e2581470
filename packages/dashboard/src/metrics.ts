/**
 * The gateway's Prometheus metrics, on a registry of their own: requests by route and outcome,
 * the queue, agent run durations, delivery attempts and failures by target, tokens and money by
 * route and model (and the prompt tokens served from the provider's cache), trace spans dropped (export queue full or export failed), and the default process metrics. Fed by the observation hooks; nothing here blocks a request.
 */
import {
  isPaused,
  promptTokenSplit,
  type Pause,
  type AttemptEvent,
  type FindingsEvent,
  type QueueStats,
  type ReconcileEvent,
  type RequestEvent,
  type SpansDroppedEvent,
} from '@webhook-gateway/core';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The route label of requests to a route that does not exist. */
const UNKNOWN_ROUTE_LABEL = '';

/** Seconds; agent runs range from a dry run to the 600 s default timeout. */
const RUN_BUCKETS_S = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * The route label of a request. Anyone can POST to `/webhooks/<anything>`, so a name is used
 * only once the gateway has resolved it as a route: label cardinality stays bounded.
 */
export function requestRouteLabel(event: RequestEvent, knownRoutes: ReadonlySet<string>): string {
  if (event.outcome === 'unknown_route') return UNKNOWN_ROUTE_LABEL;
  // `error` may come before the route was resolved; trust the name only if seen resolved before.
  if (event.outcome === 'error' && !knownRoutes.has(event.route)) return UNKNOWN_ROUTE_LABEL;
  return event.route;
}

/** A token count a counter can take (prom-client throws on negative or non-finite values). */
function countable(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

export interface GatewayMetrics {
  readonly registry: Registry;
  observeRequest(event: RequestEvent): void;
  observeAttempt(event: AttemptEvent): void;
  observeReconcile(event: ReconcileEvent): void;
  observeFindings(event: FindingsEvent): void;
  observeSpansDropped(event: SpansDroppedEvent): void;
  /** The last reconcile pass with the forge's delivery log, for the dashboard. */
  readonly lastReconcile: ReconcileEvent | undefined;
}

/** The counts of a reconcile pass, by the `outcome` label. */
const RECONCILE_OUTCOMES = ['listed', 'journaled', 'redelivered', 'failed'] as const;

/**
 * Creates the metrics on a new registry.
 *
 * @example
 * const metrics = createGatewayMetrics({ queue, configuredRoutes: ['reviews'] });
 * hooks.requestHandled.tap(NAME, (event) => metrics.observeRequest(event));
 * const text = await metrics.registry.metrics();
 */
export function createGatewayMetrics(options: {
  queue: QueueStats;
  configuredRoutes: readonly string[];
  /** The pauses in force, read at each scrape (`Store.pauses`); none when absent. */
  pauses?: () => Promise<readonly Pause[]>;
  /** Off in unit tests, which only look at the gateway's own metrics. */
  defaultMetrics?: boolean;
}): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  const knownRoutes = new Set(options.configuredRoutes);
  const { queue } = options;

  const requests = new Counter({
    name: 'webhook_requests_total',
    help: 'Webhook requests by route and outcome (route "" = unknown route).',
    labelNames: ['route', 'outcome'] as const,
    registers,
  });
  new Gauge({
    name: 'webhook_queue_depth',
    help: 'Deliveries waiting to run.',
    registers,
    collect() {
      this.set(queue.queuedCount);
    },
  });
  const { pauses } = options;
  new Gauge({
    name: 'webhook_route_paused',
    help: 'Whether new attempts of the route are paused (1: its own pause or one of every route), by route; a paused route still accepts and journals.',
    labelNames: ['route'] as const,
    registers,
    async collect() {
      if (!pauses) return;
      // A store that does not answer leaves the last values read.
      const inForce = await pauses().catch(() => undefined);
      if (!inForce) return;
      this.reset();
      const routes = new Set(knownRoutes);
      for (const pause of inForce) if (pause.route !== null) routes.add(pause.route);
      for (const route of routes) this.set({ route }, isPaused(inForce, route) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'webhook_deliveries_running',
    help: 'Deliveries running now (agent or target).',
    registers,
    collect() {
      this.set(queue.runningCount);
    },
  });
  const runDuration = new Histogram({
    name: 'webhook_agent_run_duration_seconds',
    help: 'How long agent runs took, by route (runs that returned an answer).',
    labelNames: ['route'] as const,
    buckets: RUN_BUCKETS_S,
    registers,
  });
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Delivery attempts by target and how they ended (delivered, retry, failed).',
    labelNames: ['target', 'status'] as const,
    registers,
  });
  const failures = new Counter({
    name: 'webhook_delivery_failures_total',
    help: 'Deliveries that failed for good (attempts used up or a permanent error), by target.',
    labelNames: ['target'] as const,
    registers,
  });
  const superseded = new Counter({
    name: 'webhook_deliveries_superseded_total',
    help: 'Queued deliveries a newer one for the same pull or merge request ended unrun (route supersede: true), by route.',
    labelNames: ['route'] as const,
    registers,
  });
  const partial = new Counter({
    name: 'webhook_deliveries_partial_total',
    help: 'Deliveries that delivered what the agent produced before a limit stopped it (agent.on_limit: partial), by route.',
    labelNames: ['route'] as const,
    registers,
  });
  const tokens = new Counter({
    name: 'webhook_agent_tokens_total',
    help: 'Tokens the agent used, by route, model and kind (prompt, completion).',
    labelNames: ['route', 'model', 'kind'] as const,
    registers,
  });
  // Its own counter, not a `kind` of the one above: those tokens are a part of kind="prompt",
  // and the sum over that counter's kinds stays the tokens used.
  const cachedPromptTokens = new Counter({
    name: 'webhook_agent_cached_prompt_tokens_total',
    help: 'The part of the prompt tokens the provider served from its prompt cache, by route and model.',
    labelNames: ['route', 'model'] as const,
    registers,
  });
  const cost = new Counter({
    name: 'webhook_agent_cost_total',
    help: 'What the tokens the agent used cost at agent.prices, by route, model and currency (only when prices are set).',
    labelNames: ['route', 'model', 'currency'] as const,
    registers,
  });
  const redactions = new Counter({
    name: 'webhook_secrets_redacted_total',
    help: 'Secrets and token shapes replaced by [redacted] in answers and line comments before they left, by route.',
    labelNames: ['route'] as const,
    registers,
  });
  const hiddenContent = new Counter({
    name: 'webhook_hidden_content_total',
    help: 'Hidden content (HTML comments, zero-width, bidi and tag characters, cut fields) removed from payload fields before the prompt, by route.',
    labelNames: ['route'] as const,
    registers,
  });
  const reconcilePassTime = new Gauge({
    name: 'webhook_reconcile_last_pass_timestamp_seconds',
    help: 'When the last reconcile pass with the forge delivery log finished (Unix time).',
    registers,
  });
  const reconcileCounts = new Gauge({
    name: 'webhook_reconcile_last_pass_deliveries',
    help: 'The last reconcile pass by route: deliveries listed at the forge, already journaled, redelivered, failed to redeliver.',
    labelNames: ['route', 'outcome'] as const,
    registers,
  });
  const reconcileErrors = new Gauge({
    name: 'webhook_reconcile_last_pass_error',
    help: 'Whether the last reconcile pass could not reconcile the route (1) or could (0); the log says why.',
    labelNames: ['route'] as const,
    registers,
  });
  const redeliveries = new Counter({
    name: 'webhook_reconcile_redeliveries_total',
    help: 'Deliveries the forge was asked to send again because they never reached the journal, by route.',
    labelNames: ['route'] as const,
    registers,
  });
  const findings = new Counter({
    name: 'webhook_review_findings_total',
    help: 'What reviews did with their findings, by route and outcome: new (posted), still_open (not posted again), resolved (by a person, or fixed and resolved by the gateway), suppressed (dismissed or resolved before: never raised again), thread_error (review threads that could not be read or resolved; the review still went out).',
    labelNames: ['route', 'outcome'] as const,
    registers,
  });
  const spansDropped = new Counter({
    name: 'webhook_trace_spans_dropped_total',
    help: 'Trace spans that never reached the collector: the export queue was full, or the export failed (down, slow past the timeout, or refusing): observability.otlp.',
    registers,
  });
  let lastReconcile: ReconcileEvent | undefined;
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  return {
    registry,
    get lastReconcile() {
      return lastReconcile;
    },
    observeFindings({ route, counts }) {
      findings.inc({ route, outcome: 'new' }, counts.new);
      findings.inc({ route, outcome: 'still_open' }, counts.stillOpen);
      findings.inc({ route, outcome: 'resolved' }, counts.resolved);
      findings.inc({ route, outcome: 'suppressed' }, counts.suppressed);
      findings.inc({ route, outcome: 'thread_error' }, counts.resolveErrors);
    },
    observeSpansDropped({ spans }) {
      spansDropped.inc(spans);
    },
    observeReconcile(event) {
      lastReconcile = structuredClone(event);
      reconcilePassTime.set(event.finishedAt / 1000);
      for (const counts of event.routes) {
        for (const outcome of RECONCILE_OUTCOMES) {
          reconcileCounts.set({ route: counts.route, outcome }, counts[outcome]);
        }
        reconcileErrors.set({ route: counts.route }, counts.error === undefined ? 0 : 1);
        redeliveries.inc({ route: counts.route }, counts.redelivered);
      }
    },
    observeRequest(event) {
      if (event.outcome !== 'unknown_route' && event.outcome !== 'error') {
        knownRoutes.add(event.route);
      }
      requests.inc({ route: requestRouteLabel(event, knownRoutes), outcome: event.outcome });
      if (event.outcome === 'accepted' && event.superseded) {
        superseded.inc({ route: event.route }, event.superseded);
      }
    },
    observeAttempt(event) {
      const target = event.target ?? '';
      attempts.inc({ target, status: event.status });
      if (event.status === 'failed') failures.inc({ target });
      const route = event.record.route;
      if (event.status === 'delivered' && event.record.partial) partial.inc({ route });
      if (event.safety?.redactions) redactions.inc({ route }, event.safety.redactions);
      for (const note of event.safety?.hidden ?? []) {
        hiddenContent.inc(
          { route },
          countable(Object.values(note.removed).reduce((a, b) => a + b, 0)),
        );
      }
      // runMs is set only when the agent ran in this attempt and answered.
      if (event.runMs !== undefined) runDuration.observe({ route }, event.runMs / 1000);
      // `spent` is this attempt's run alone (a failed run included): `record.agent` is the
      // delivery's total, which would count earlier attempts' tokens again.
      const spent = event.spent;
      if (!spent) return;
      // A runner without a model (a command) is counted under its runner's name.
      const model = spent.model ?? spent.runner;
      if (spent.usage) {
        tokens.inc({ route, model, kind: 'prompt' }, countable(spent.usage.promptTokens));
        tokens.inc({ route, model, kind: 'completion' }, countable(spent.usage.completionTokens));
        cachedPromptTokens.inc({ route, model }, countable(promptTokenSplit(spent.usage).cached));
      }
      if (spent.cost) {
        cost.inc({ route, model, currency: spent.cost.currency }, countable(spent.cost.amount));
      }
    },
  };
}
