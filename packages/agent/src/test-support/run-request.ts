/** Builders of runner inputs for tests: a validated agent block, a journal row, a run request. */
import {
  parseConfig,
  type GatewayPlugin,
  silentLogger,
  type AgentConfig,
  type DeliveryRecord,
  type Logger,
  type RouteConfig,
  type RunRequest,
} from '@webhook-gateway/core';
import { agentKeys, agentSettings, type AgentSettings } from '../agent-settings.js';

/** The agent plugin as config parsing sees it: the keys it adds to `agent:`. */
const agentKeysOnly: Pick<GatewayPlugin<unknown>, 'name' | 'agent'> = {
  name: '@webhook-gateway/agent',
  agent: agentKeys,
};

/** An agent block as config parsing makes it (defaults filled in). */
export function agentConfig(agent: Record<string, unknown>): AgentSettings {
  return agentSettings(parseConfig({ agent }, {}, [agentKeysOnly]).agent);
}

/** A route block as config parsing makes it. */
export function routeConfig(route: Record<string, unknown> = {}): RouteConfig {
  const config = parseConfig(
    {
      platforms: {
        webhook: { extra: { host: '127.0.0.1', routes: { review: { secret: 's', ...route } } } },
      },
    },
    {},
    [agentKeysOnly],
  );
  return config.platforms.webhook.extra.routes.review as RouteConfig;
}

/** A journal row of a pull-request delivery. */
export function deliveryRecord(id = 'journal-1'): DeliveryRecord {
  return {
    id,
    seq: 1,
    route: 'review',
    event: 'pull_request',
    action: 'opened',
    deliveryId: 'delivery-1',
    receivedAt: Date.now(),
    payload: { number: 2 },
    headers: {},
    orderKey: null,
    maxAttempts: 1,
    status: 'running',
    attempts: 1,
    nextAttemptAt: 0,
    prompt: null,
    answer: null,
    lastError: null,
    startedAt: null,
    finishedAt: null,
    attemptLog: [],
    agent: null,
  };
}

export interface RunRequestParts {
  agent: AgentConfig;
  home: string;
  prompt?: string;
  route?: RouteConfig;
  signal?: AbortSignal;
  log?: Logger;
  /** The journal row as the attempt sees it (e.g. with what earlier attempts spent). */
  delivery?: DeliveryRecord;
  /** Gets what the run has spent so far; default: ignored. */
  reportAccounting?: RunRequest['reportAccounting'];
  /** Gets what the run has produced so far; default: none given. */
  reportProduced?: RunRequest['reportProduced'];
}

/** A run request as the worker pool makes it. */
export function runRequest(parts: RunRequestParts): RunRequest {
  return {
    prompt: parts.prompt ?? 'Review PR #2 in o/r',
    delivery: parts.delivery ?? deliveryRecord(),
    routeConfig: parts.route ?? routeConfig(),
    agent: parts.agent,
    home: parts.home,
    log: parts.log ?? silentLogger(),
    signal: parts.signal ?? new AbortController().signal,
    reportAccounting: parts.reportAccounting ?? (() => undefined),
    ...(parts.reportProduced ? { reportProduced: parts.reportProduced } : {}),
  };
}
