/** At start, an enabled sms platform checks its Twilio credentials once and says so. */
import { errorMessage, type GatewayConfig, type Logger } from '@webhook-gateway/core';
import { callTwilio, redact } from './http.js';
import { twilioCredentials } from './settings.js';
import { accountRequest, classifyAccountAnswer, type CheckOutcome } from './twilio.js';

/** Fetches the account (`GET …/Accounts/{sid}.json`). Never throws. */
export async function checkTwilio(
  config: GatewayConfig,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<CheckOutcome> {
  const found = twilioCredentials(config);
  if (!found.ok) return { connected: false, reason: `platforms.sms.${found.missing} is not set` };
  const secrets = [found.credentials.authToken];
  try {
    const answer = await callTwilio(accountRequest(found.credentials), {
      signal: options.signal ?? new AbortController().signal,
      timeoutMs: options.timeoutMs,
    });
    const outcome = classifyAccountAnswer(answer);
    return outcome.connected
      ? outcome
      : { connected: false, reason: redact(outcome.reason, secrets) };
  } catch (error) {
    return { connected: false, reason: redact(errorMessage(error), secrets) };
  }
}

/**
 * Logs `sms (Twilio) connected as <account name>` or a warning `… not connected: <reason>`. A
 * failed check never stops the gateway: each delivery retries anyway.
 */
export async function logTwilioConnection(
  config: GatewayConfig,
  log: Logger,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  if (!config.platforms.sms.enabled) return;
  const outcome = await checkTwilio(config, options);
  if (outcome.connected) {
    log.info(
      { platform: 'sms', ...(outcome.identity ? { identity: outcome.identity } : {}) },
      outcome.identity ? `sms (Twilio) connected as ${outcome.identity}` : 'sms (Twilio) connected',
    );
  } else {
    log.warn({ platform: 'sms' }, `sms (Twilio) not connected: ${outcome.reason}`);
  }
}
