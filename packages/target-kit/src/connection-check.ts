/**
 * The start-time credential check: one call to the service when the gateway starts, its verdict
 * logged. A failed check never stops the gateway: the service may be down for a moment, and each
 * delivery retries anyway.
 */
import { errorMessage, type Logger, type PluginInstance } from '@webhook-gateway/core';
import type { HttpTargetOptions } from './options.js';
import { callService, redact, type ServiceAnswer, type ServiceRequest } from './service-http.js';

/** How a credential check went. */
export type CheckOutcome =
  | { connected: true; /** Who we are, when the service says (`@my_bot`). */ identity?: string }
  | { connected: false; reason: string };

export interface CheckOptions {
  timeoutMs: number;
  /** Aborted when the gateway stops. */
  signal?: AbortSignal;
}

/** A check, as the target's own code describes it. */
export interface ServiceCheck {
  /** The service's name, for people (`Twilio`). */
  service: string;
  /** The call that proves the credential works (pure). */
  request(): ServiceRequest;
  /** Reads the service's answer to it. */
  classify(answer: ServiceAnswer): CheckOutcome;
  /** Masked out of the reason (the token). */
  secrets: readonly string[];
}

/** Makes the check call. Never throws: a failure is a `connected: false` with a safe reason. */
export async function checkService(
  check: ServiceCheck,
  options: CheckOptions,
): Promise<CheckOutcome> {
  try {
    const answer = await callService(check.request(), {
      service: check.service,
      signal: options.signal ?? new AbortController().signal,
      timeoutMs: options.timeoutMs,
    });
    const outcome = check.classify(answer);
    return outcome.connected
      ? outcome
      : { connected: false, reason: redact(outcome.reason, check.secrets) };
  } catch (error) {
    return { connected: false, reason: redact(errorMessage(error), check.secrets) };
  }
}

/**
 * Logs `<name> connected` (as the identity the service gave, if any) or warns
 * `<name> not connected: <reason>`.
 *
 * @example
 * logConnection(log, 'sms', 'sms (Twilio)', await checkService(check, options));
 */
export function logConnection(
  log: Logger,
  platform: string,
  name: string,
  outcome: CheckOutcome,
): void {
  if (outcome.connected) {
    log.info(
      { platform, ...(outcome.identity ? { identity: outcome.identity } : {}) },
      outcome.identity ? `${name} connected as ${outcome.identity}` : `${name} connected`,
    );
  } else {
    log.warn({ platform }, `${name} not connected: ${outcome.reason}`);
  }
}

/**
 * The plugin lifecycle that runs `checkAll` when the gateway starts, each call bounded by
 * `check_timeout_s`, and aborts it when the gateway stops.
 *
 * @example
 * if (!serving) return;
 * return checkAtStart(options, (check) => logConnections(config, log, check));
 */
export function checkAtStart(
  options: HttpTargetOptions,
  checkAll: (check: Required<CheckOptions>) => Promise<void>,
): PluginInstance {
  const stopping = new AbortController();
  return {
    start: () => checkAll({ timeoutMs: options.check_timeout_s * 1000, signal: stopping.signal }),
    stop: async () => stopping.abort(new Error('gateway stopping')),
  };
}
