/**
 * Every extension point of the gateway, declared in one frozen object (as webpack's Compiler
 * does). The hook class says the control flow; plugins tap by their package name.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  HookMap,
  SyncBailHook,
  SyncHook,
} from 'tapable';
import type { AgentConfig, GatewayConfig, ReviewSettings, RouteConfig } from './config/schema.js';
import type {
  AgentAccounting,
  DeliverySafety,
  DeliveryRecord,
  LineComment,
  NotRunStatus,
  RefusedStatus,
  ReviewConclusion,
} from './delivery.js';
import type { FindingsEvent, FindingsJournal } from './findings.js';
import type { Logger } from './logger.js';
import type { QueueStanding } from './queue-standing.js';
import type { JsonObject } from './template.js';

/** A request as an auth scheme sees it: the raw bytes, never a re-serialised body. */
export interface AuthRequest {
  route: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** The secrets that verify this route: its own, else the global one (several while rotating). */
  secrets: readonly string[];
}

/**
 * A scheme's verdict on a request that carried its headers. An accepted request may name its
 * event type and delivery id as the scheme's sender sends them; what it leaves out, core reads
 * from the headers of `docs/contract.md#headers`.
 */
export type AuthVerdict = AuthAccepted | AuthRefused;

export interface AuthAccepted {
  ok: true;
  /** The event type: a header's value, or read from the parsed payload (a body field). */
  event?: string | ((payload: JsonObject) => string | undefined);
  /** The sender's id of this delivery (de-duplication key). */
  deliveryId?: string;
}

export interface AuthRefused {
  ok: false;
  /** Why, for the DEBUG log: never a secret, never a header's value. */
  reason: string;
  /**
   * A bare credential (a Bearer token) that did not match, rather than a signature that failed:
   * it refuses only when no scheme accepted the request, so a header meant for something else
   * beside a valid signature does not refuse it. A failed signature always refuses.
   */
  credentialOnly?: boolean;
}

/** What a filter looks at once the payload is parsed and authenticated. */
export interface FilterRequest {
  route: string;
  routeConfig: RouteConfig;
  event: string;
  action: string | null;
  payload: JsonObject;
  /** The request's headers (lower-case names), for filters on `headers.<name>`. */
  headers: IncomingHttpHeaders;
  /** The auth scheme that verified the request (`forge`, `gitea`…), none on an open route. */
  authScheme?: string;
}

/** Why a delivery is ignored: `events`, `actions`, `filters` or a plugin's own word. */
export interface FilterVerdict {
  reason: string;
}

/** The context a prompt is rendered in. */
export interface RenderContext {
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  agent: AgentConfig;
  /** Gateway home: skills are looked up under it. */
  home: string;
  log: Logger;
}

/** What the worker asks before an agent runs (in the worker: it may call the forge). */
export interface AdmitRequest {
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  agent: AgentConfig;
  config: GatewayConfig;
  /** This attempt's forge identity (the `credentials` hook's result). */
  credentials?: Credentials;
  log: Logger;
  signal: AbortSignal;
}

/**
 * Environment variables that carry one delivery's forge identity (`GH_TOKEN`, `GH_HOST`,
 * `GITLAB_TOKEN`…): added to the forge CLIs' environment and the agent's terminal. Secret: never
 * logged, never journaled.
 */
export type Credentials = Readonly<Record<string, string>>;

/** What a plugin looks at to give an attempt its forge identity. */
export interface CredentialsRequest {
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  config: GatewayConfig;
  log: Logger;
  signal: AbortSignal;
}

/** The review values a template may name (`{_gateway.diff}` …), fetched only when it does. */
export const REVIEW_VALUES = [
  'diff',
  'diff_stats',
  'skipped_files',
  'instructions',
  'guidance',
] as const;
export type ReviewValue = (typeof REVIEW_VALUES)[number];

/** What a forge plugin looks at to prepare a pull or merge request's review context. */
export interface ReviewContextRequest {
  /** The delivery, its payload as the route's script left it. */
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  /** The top-level `review:` block with the route's keys on top. */
  review: ReviewSettings;
  /** The values the route's template names; nothing else need be fetched. */
  wanted: ReadonlySet<ReviewValue>;
  /**
   * The head SHA the last delivered review of this request read, when `review.incremental` is on
   * and there is one: the diff is then the compare from it to the head. Otherwise ''.
   */
  since: string;
  /** This attempt's forge identity (the `credentials` hook's result). */
  credentials: Credentials;
  config: GatewayConfig;
  log: Logger;
  signal: AbortSignal;
}

/** One runner call's share of a diff over budget: whole files. */
export interface ReviewChunk {
  /** The paths of the chunk's files, for the answer's headings. */
  files: string[];
  /** The chunk's diff: `{_gateway.diff}` in its call. */
  diff: string;
}

/** A review's prepared context, as the template and the answer get it. */
export interface ReviewContext {
  /** The values asked for (a value not given stays as written in the template). */
  values: Partial<Record<ReviewValue, string>>;
  /**
   * With `review.chunks` above 1 and a diff over budget: the diff in groups of whole files. The
   * runner is called once per chunk (in order, `{_gateway.diff}` being the chunk's), and the
   * answers are merged into one: each under a heading naming its files, line comments together,
   * tokens added up.
   */
  chunks?: ReviewChunk[];
  /** Markdown the answer ends with: what was not read and why, refused rules (empty: none). */
  footer?: string;
  /** Set when the repository's rules skip this request: it ends `skipped`, not run. */
  skip?: string;
  /** What the diff covers (`abc1234..def5678, the whole pull request`), for the run details. */
  range?: string;
  /** The paths of the changed files the review did not read, for the run details. */
  skippedFiles?: string[];
}

/** Why a delivery must not run: it ends with `status`, and `reason` as its last error. */
export interface AdmitRefusal {
  status: RefusedStatus;
  reason: string;
}

/** Everything a runner needs to turn a prompt into an answer. */
export interface RunRequest {
  prompt: string;
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  /** The global agent block with the route's overrides applied. */
  agent: AgentConfig;
  /** Gateway home: runners keep per-delivery work directories under it. */
  home: string;
  /** This attempt's forge identity, for the agent's terminal (the `credentials` hook's result). */
  credentials?: Credentials;
  log: Logger;
  /** Aborted when the gateway stops or the run times out. */
  signal: AbortSignal;
  /**
   * What this run has spent so far. A runner that counts tokens calls it after each model turn,
   * so a run that then fails, times out or is stopped still adds its tokens to the delivery's.
   */
  reportAccounting(accounting: AgentAccounting): void;
  /**
   * What this run has produced so far: the text the model wrote, the line comments it left. A
   * runner that can be stopped part way (tokens, turns) calls it as it goes, so a run a limit
   * stops still delivers it with `agent.on_limit: partial`.
   */
  reportProduced?(produced: RunProduced): void;
}

/** A stopped run's output so far (`RunRequest.reportProduced`). */
export interface RunProduced {
  answer: string;
  lineComments: LineComment[];
}

export interface RunResult {
  /** The answer; with line comments, their summary. */
  answer: string;
  /** What this run did and spent (core adds it to what earlier attempts spent). */
  accounting?: AgentAccounting;
  /** Remarks on lines of the pull or merge request's new code, collected next to the answer. */
  lineComments?: LineComment[];
  /** The agent's verdict on the review (absent: it gave none, the check concludes `neutral`). */
  conclusion?: ReviewConclusion;
}

/** An answer on its way to a target. Throw to fail: the worker retries. */
export interface DeliverRequest {
  /**
   * The answer as text: the summary followed by the line comments (`path:line — body`), for
   * targets that have no place for comments on lines.
   */
  answer: string;
  /** The agent's answer alone, without the line comments (a review's body). */
  summary: string;
  /** The agent's line comments (empty when it made none), for targets that post them on lines. */
  lineComments: readonly LineComment[];
  /** The agent's verdict, `neutral` when it gave none: what a check or commit status shows. */
  conclusion: ReviewConclusion;
  /**
   * The findings earlier reviews of this route posted on the same pull or merge request, for
   * review targets that remember them; absent when the delivery is not about one.
   */
  findings?: FindingsJournal;
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  /** `deliver_extra` with its templates rendered against the payload. */
  extra: Record<string, unknown>;
  config: GatewayConfig;
  /** This attempt's forge identity (the `credentials` hook's result). */
  credentials?: Credentials;
  log: Logger;
  signal: AbortSignal;
}

/**
 * A delivery whose state a target may show on the forge (a check run, a commit status): when an
 * attempt starts its run (`attemptStarted`), or when it ends without the target being called
 * (`deliveryEnded`).
 */
export interface DeliveryStateRequest {
  delivery: DeliveryRecord;
  routeConfig: RouteConfig;
  config: GatewayConfig;
  /** This attempt's forge identity (the `credentials` hook's result). */
  credentials?: Credentials;
  log: Logger;
  signal: AbortSignal;
}

/**
 * A queued delivery whose place changed (`deliveryWaiting`): where it stands now, and why it
 * waits (`standing.reasons`, never empty here).
 */
export interface DeliveryWaitingRequest extends Omit<DeliveryStateRequest, 'credentials'> {
  standing: QueueStanding;
  /**
   * The delivery's forge identity (the `credentials` hook), asked only by a tap that shows the
   * place: a GitHub App exchanges a token for it, which a route with nothing to show never needs.
   * Asked of the hook once per telling, however many taps call it.
   */
  credentials(): Promise<Credentials | undefined>;
}

export type DeliveryEndedRequest = DeliveryStateRequest &
  (
    | {
        /** Failed for good, or its attempt died with the gateway (found at start-up). */
        status: 'failed';
        /** Why, as the journal keeps it. */
        error: string;
      }
    | {
        /** The agent answered `[SILENT]`: nothing was sent. */
        status: 'silent';
        conclusion: ReviewConclusion;
      }
  );

/** How one webhook request ended, for metrics and audit. */
export interface RequestEvent {
  /** The route named in the path (it may be unknown). */
  route: string;
  outcome: RequestOutcome;
  status: number;
  durationMs: number;
  /** On an accepted request: how many queued deliveries it superseded (route `supersede`). */
  superseded?: number;
}

export type RequestOutcome =
  | 'accepted'
  | 'ignored'
  | 'duplicate'
  | 'unauthorized'
  | 'rate_limited'
  | 'too_large'
  | 'bad_request'
  | 'unsupported_type'
  | 'unknown_route'
  /** A route with `enabled: false` (403). */
  | 'disabled'
  /** Refused while the gateway drains, with `drain_refuse: true` (503). */
  | 'draining'
  | 'error';

/** How one attempt at a delivery ended. */
export interface AttemptEvent {
  record: DeliveryRecord;
  /** The route's target, or null when the route was gone before one was known. */
  target: string | null;
  status: 'delivered' | 'silent' | 'retry' | 'failed' | NotRunStatus;
  error?: string;
  durationMs: number;
  /** How long the agent ran, when it ran in this attempt and answered. */
  runMs: number | undefined;
  /**
   * What the agent spent in this attempt, when it ran (answered or not); `record.agent` is the
   * delivery's total over its attempts.
   */
  spent: AgentAccounting | undefined;
  /**
   * What this attempt took out of the payload (hidden content) and the answer (redactions),
   * when it took anything; the row's `safety` holds the same.
   */
  safety?: DeliverySafety;
}

/**
 * Spans dropped on the way to the collector (`observability.otlp`): the export queue full, or a
 * failed export (the collector down, slow or refusing).
 */
export interface SpansDroppedEvent {
  spans: number;
}

/** One route's share of a reconcile pass (see `@webhook-gateway/reconcile`). */
export interface ReconcileRouteCounts {
  route: string;
  /** Deliveries the forge's log listed in the window read. */
  listed: number;
  /** Of those, the ones the journal already holds for the route (never redelivered). */
  journaled: number;
  /** Missing, not answered 2xx, and the forge agreed to send again. */
  redelivered: number;
  /** Missing, not answered 2xx, and the forge's redelivery request failed. */
  failed: number;
  /** Why the route could not be reconciled at all (CLI missing, hook unknown, rate limit…). */
  error?: string;
}

/** How one reconcile pass ended, for metrics and the dashboard. */
export interface ReconcileEvent {
  startedAt: number;
  finishedAt: number;
  routes: ReconcileRouteCounts[];
}

export interface GatewayHooks {
  /**
   * One hook per auth scheme name (`forge`, `gitea`, …): the scheme checks a request carrying its
   * headers; `undefined` means "not mine". The receiver asks every loaded scheme: any refusal
   * decides, else the first of the route's schemes that accepted.
   */
  readonly authenticate: HookMap<AsyncSeriesBailHook<[AuthRequest], AuthVerdict | undefined>>;
  /** Returns a reason to ignore the delivery, or `undefined` to keep it. */
  readonly filter: AsyncSeriesBailHook<[FilterRequest], FilterVerdict | undefined>;
  /**
   * Asked once per attempt before `admit`: each tap adds the environment variables of the
   * delivery's forge identity (an App's installation token); a throw fails the attempt.
   */
  readonly credentials: AsyncSeriesWaterfallHook<[Credentials, CredentialsRequest]>;
  /**
   * Asked in the attempt, after the route's script, when the route's template names a review
   * value (`{_gateway.diff}` …) of a pull or merge request: the first forge plugin that knows the
   * delivery's sender fetches and prepares them; a throw fails the attempt (retried).
   */
  readonly reviewContext: AsyncSeriesBailHook<[ReviewContextRequest], ReviewContext | undefined>;
  /**
   * Asked by the worker before the agent runs: a refusal ends the delivery as `denied` or
   * `over_budget` without a run; a throw is a failed attempt, retried (the forge was unreachable).
   */
  readonly admit: AsyncSeriesBailHook<[AdmitRequest], AdmitRefusal | undefined>;
  /**
   * Prompt text in, prompt text out: the route's template output on its way to the runner
   * (the agent plugin adds skills and framing; the `stage` of a tap says where it runs).
   */
  readonly render: AsyncSeriesWaterfallHook<[string, RenderContext]>;
  /** One hook per runner name (`dry-run`, `command`, `openai`, …): the route's runner answers. */
  readonly run: HookMap<AsyncSeriesBailHook<[RunRequest], RunResult | undefined>>;
  /** One hook per target name (`log`, `forge_comment`, `messenger_a`, …): sends the answer. */
  readonly deliver: HookMap<AsyncSeriesHook<[DeliverRequest]>>;
  /**
   * Called when an attempt is about to run the agent (or, with the answer kept from an earlier
   * attempt, to call the target): a target that shows the review's state on the forge marks it
   * in progress. Not called for a delivery refused or skipped before its run. A throw is logged;
   * it never fails the attempt.
   */
  readonly attemptStarted: AsyncSeriesHook<[DeliveryStateRequest]>;
  /**
   * Called while a delivery waits in the queue, each time its place in its route's queue changes
   * within the first ten or a pause holds or frees it (`waiting-notices.ts`, every few seconds;
   * further back, once, then again at 10th): a target that shows the review's state on the
   * forge says "queued, 3rd". Not called for one about to start. A throw is logged.
   */
  readonly deliveryWaiting: AsyncSeriesHook<[DeliveryWaitingRequest]>;
  /**
   * Asked of each route with queued deliveries before any `deliveryWaiting`: `true` from the
   * plugin whose `deliveryWaiting` tap shows that route's waiting deliveries (a check, a living
   * comment). Only those routes' deliveries are told, and the standings are not worked out at
   * all while no queued delivery's route shows: a busy queue on routes that show nothing costs
   * nothing. Must not throw.
   */
  readonly routeShowsWaiting: SyncBailHook<[RouteConfig], true | undefined>;
  /**
   * Called when a started delivery ends without its target: failed for good, silent, or (at
   * start-up) its attempt died with the gateway. A target that showed the review's state
   * completes it, so nothing stays in progress. A throw is logged.
   */
  readonly deliveryEnded: AsyncSeriesHook<[DeliveryEndedRequest]>;
  /** Observation only: each webhook request's outcome (metrics). Taps must not throw. */
  readonly requestHandled: SyncHook<[RequestEvent]>;
  /** Observation only: each attempt's outcome (metrics, audit). Taps must not throw. */
  readonly attemptFinished: SyncHook<[AttemptEvent]>;
  /** Observation only: each reconcile pass with the forge's delivery log. Taps must not throw. */
  readonly reconciled: SyncHook<[ReconcileEvent]>;
  /**
   * Observation only: what a review target did with its route's findings on a request (new,
   * still open, resolved, suppressed, thread errors). Taps must not throw.
   */
  readonly findingsReviewed: SyncHook<[FindingsEvent]>;
  /** Observation only: trace spans dropped, queue full or export failed (`observability.otlp`). Taps must not throw. */
  readonly spansDropped: SyncHook<[SpansDroppedEvent]>;
}

/** Creates the hooks of one gateway. */
export function createHooks(): GatewayHooks {
  return Object.freeze({
    authenticate: new HookMap(
      () => new AsyncSeriesBailHook<[AuthRequest], AuthVerdict | undefined>(['request']),
    ),
    filter: new AsyncSeriesBailHook<[FilterRequest], FilterVerdict | undefined>(['request']),
    credentials: new AsyncSeriesWaterfallHook<[Credentials, CredentialsRequest]>([
      'credentials',
      'request',
    ]),
    admit: new AsyncSeriesBailHook<[AdmitRequest], AdmitRefusal | undefined>(['request']),
    reviewContext: new AsyncSeriesBailHook<[ReviewContextRequest], ReviewContext | undefined>([
      'request',
    ]),
    render: new AsyncSeriesWaterfallHook<[string, RenderContext]>(['prompt', 'context']),
    run: new HookMap(
      () => new AsyncSeriesBailHook<[RunRequest], RunResult | undefined>(['request']),
    ),
    deliver: new HookMap(() => new AsyncSeriesHook<[DeliverRequest]>(['request'])),
    attemptStarted: new AsyncSeriesHook<[DeliveryStateRequest]>(['request']),
    deliveryWaiting: new AsyncSeriesHook<[DeliveryWaitingRequest]>(['request']),
    routeShowsWaiting: new SyncBailHook<[RouteConfig], true | undefined>(['route']),
    deliveryEnded: new AsyncSeriesHook<[DeliveryEndedRequest]>(['request']),
    requestHandled: new SyncHook<[RequestEvent]>(['event']),
    attemptFinished: new SyncHook<[AttemptEvent]>(['event']),
    reconciled: new SyncHook<[ReconcileEvent]>(['event']),
    findingsReviewed: new SyncHook<[FindingsEvent]>(['event']),
    spansDropped: new SyncHook<[SpansDroppedEvent]>(['event']),
  });
}
