/**
 * @webhook-gateway/core: the plugin author's API (plugins, hooks, the config they read, the store
 * contract). Running a gateway is `@webhook-gateway/core/runtime`; what store implementations share
 * is `@webhook-gateway/core/store-kit`; test helpers are `@webhook-gateway/core/testing`.
 */

// Declaring a plugin and what its `setup` receives.
export {
  definePlugin,
  settingsIn,
  type GatewayPlugin,
  type PluginDefinition,
  type PluginProvides,
  type PlatformSlices,
  type SettingsOf,
  type DependencySettings,
  type StoreOpener,
  type PluginContext,
  type PluginInstance,
  type QueueStats,
} from './plugin.js';
// Loading a plugin's delivery or runner code at its first use.
export { lazyTap } from './lazy-tap.js';

// The hooks a plugin taps, with each hook's request and verdict.
export {
  type GatewayHooks,
  type AuthRequest,
  type AuthVerdict,
  type AuthAccepted,
  type AuthRefused,
  type FilterRequest,
  type FilterVerdict,
  type Credentials,
  type CredentialsRequest,
  type AdmitRequest,
  type AdmitRefusal,
  type ReviewContextRequest,
  type ReviewContext,
  type ReviewChunk,
  type ReviewValue,
  type RenderContext,
  type RunRequest,
  type RunResult,
  type RunProduced,
  type DeliverRequest,
  type DeliveryStateRequest,
  type DeliveryEndedRequest,
  type DeliveryWaitingRequest,
  type RequestEvent,
  type RequestOutcome,
  type AttemptEvent,
  type ReconcileEvent,
  type ReconcileRouteCounts,
  type SpansDroppedEvent,
} from './hooks.js';
export { reviewValuesIn } from './review-values.js';
export {
  isRunLimitError,
  runLimitError,
  runLimitNotice,
  type RunLimit,
  type RunLimitError,
  type ReviewProgress,
} from './run-limit.js';

// The config plugins read, and the parser that makes one (with defaults) in tests.
export {
  agentForRoute,
  type GatewayConfig,
  type RouteConfig,
  type RouteReconcileConfig,
  type AgentConfig,
  type AgentOverrides,
  type AgentKeys,
  type ReviewSettings,
  type WebhookSettings,
  type StoreConfig,
} from './config/schema.js';
export { parseConfig } from './config/load.js';

// Binding a listener of a plugin's own, with bind errors that name the key to change.
export { listenOn, type ListenerAddress } from './listen.js';

// Traces (`observability.otlp`): the tracer contract `@webhook-gateway/tracing` implements, and
// the step a plugin wraps a call in to make it a span of the delivery's trace.
export type { GatewayTracer, TraceAttributes, TraceSpan, TraceSpanOptions } from './tracing.js';
export { traceStep } from './trace-scope.js';
export type { OtlpSettings } from './config/observability-schema.js';

// Errors meant for people: what failed, where, and what to do.
export { ConfigError, StartupError, errorMessage, type ConfigProblem } from './errors.js';

// A delivery as the journal keeps it.
export type {
  DeliveryRecord,
  NewDelivery,
  DeliveredStatus,
  DeliveryStatus,
  RefusedStatus,
  NotRunStatus,
  AttemptRecord,
  AgentAccounting,
  AgentCost,
  TokenUsage,
  ToolCallRecord,
  LineComment,
  ReviewConclusion,
  ReviewConclusionValue,
  DeliverySafety,
  HiddenContentNote,
} from './delivery.js';

export {
  DELIVERY_STATUSES,
  isFinishedStatus,
  answerWithLineComments,
  promptTokenSplit,
} from './delivery.js';

// The contract a store meets. What implementing one takes beyond it (a new row, the row schemas,
// the shared queue and rate limiter) is `@webhook-gateway/core/store-kit`.
export type {
  Store,
  AcceptResult,
  QueuedDelivery,
  DeliveryFilter,
  DeliveryOutline,
  DeliveryProgress,
  Pause,
  Subscription,
} from './store.js';
export { isPaused } from './pause-watch.js';

// Where each queued delivery stands (its place, its estimated start, why it waits) and its words.
export {
  queueStandings,
  typicalRunMs,
  type QueueStanding,
  type QueueSnapshot,
  type WaitReason,
  type HeldBack,
  type RunningDelivery,
} from './queue-standing.js';
export { readQueueStandings, type StandingsRead } from './queue-snapshot.js';
export { ordinal, roughlyIn, standingText, waitReasonText } from './queue-standing-text.js';

// The outbox: lifecycle events and targets' messages waiting to be POSTed, signed.
export {
  OUTBOX_TTL_MS,
  type NewOutboxMessage,
  type OutboxMessage,
  type OutboxClaim,
  type OutboxOutcome,
} from './outbox.js';
export {
  outboundDestination,
  type OutboundPlan,
  type OutboundSubscription,
} from './outbound-plan.js';
export { LIFECYCLE_EVENTS, type LifecycleEvent } from './lifecycle-events.js';
// The rules of an outbound URL and of a Standard Webhooks secret (`extra.outbound`, targets).
export {
  outboundUrlSchema,
  standardWebhookSecretSchema,
  type OutboundSubscriptionConfig,
} from './config/outbound-schema.js';

// The shape of an agent's line comment (runners check what the agent wrote against it).
export { lineCommentSchema, reviewConclusionSchema } from './delivery-schema.js';
export { codeFence, lineCommentPlace, suggestionAsText } from './line-comment-text.js';

// Findings remembered across pushes: fingerprints, their markers, what the journal keeps.
export {
  FINDING_STATES,
  findingSchema,
  findingsSchema,
  findingFingerprint,
  findingMarker,
  findingMarkersIn,
  withoutFindingMarkers,
  findingCountsLine,
  findingFate,
  type Finding,
  type FindingFate,
  type FindingState,
  type FindingsJournal,
  type FindingCounts,
  type FindingsEvent,
} from './findings.js';

// The logger every plugin gets, and one that writes nothing (for tests).
export { silentLogger, type Logger } from './logger.js';

// Payload lookups targets use, and the rendering that makes a `DeliverRequest`'s `extra`.
export { lookupPath, isMissing, renderDeliverExtra, type JsonObject } from './template.js';

// What keeps hidden text out of prompts and secrets out of answers (docs/security.md).
export {
  cleanPayload,
  describeHiddenContent,
  HIDDEN_KINDS,
  type HygieneSettings,
} from './hygiene.js';
export { createRedactor, REDACTED, type Redactor } from './redaction.js';

// Which pull or merge request a payload is about, for each sender the gateway accepts.
export { pullRequestOf, type PullRequest } from './pull-request.js';

// Comments: the loop guard (its marker, `isOwnComment`), who wrote a comment.
export {
  GATEWAY_MARKER,
  gatewayMarker,
  isCommentEvent,
  isCommandEvent,
  commentAuthor,
  isOwnComment,
  type OwnAccounts,
} from './comment-events.js';

// Header names and helpers of the auth schemes.
export {
  FORGE_SIGNATURE_HEADERS,
  ALTFORGE_TOKEN_HEADERS,
  firstHeader,
  headerBytes,
} from './headers.js';
export {
  bodyHmacMatches,
  digestsEqual,
  isPrintableAscii,
  isWithinWindow,
} from './signature-checks.js';

// Whether a bind address is loopback (plugins that listen or call out check it).
export { isLoopbackHost } from './loopback.js';
