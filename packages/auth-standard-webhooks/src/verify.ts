/**
 * The Standard Webhooks signature (Svix and the services sending through it):
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, several
 * space-separated while the sender rotates, and `webhook-timestamp` in Unix seconds.
 */
import { createHmac } from 'node:crypto';
import { digestsEqual, headerBytes, isPrintableAscii, isWithinWindow } from '@webhook-gateway/core';

const SECRET_PREFIX = 'whsec_';
/** Strict base64 of 32 bytes: 43 characters and one `=` of padding. */
const V1_SIGNATURE = /^v1,([A-Za-z0-9+/]{43}=)$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key of a secret: the base64-decoded rest of a `whsec_…` secret, else the secret's
 * UTF-8 bytes.
 */
export function standardWebhookKey(secret: string): Buffer {
  const rest = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : undefined;
  if (rest !== undefined && rest !== '' && STRICT_BASE64.test(rest)) {
    return Buffer.from(rest, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/**
 * Every key a secret may stand for when verifying, as senders read it: a `whsec_…` secret has one
 * (above). Without the prefix the reference libraries (standard-webhooks, svix) base64-decode it
 * while others (Hermes Agent) use its UTF-8 bytes: both are tried when it is valid base64, so a
 * secret copied without its prefix verifies whichever way the sender signed.
 */
export function standardWebhookVerifyKeys(secret: string): Buffer[] {
  const utf8 = Buffer.from(secret, 'utf8');
  if (secret.startsWith(SECRET_PREFIX) || secret === '' || !STRICT_BASE64.test(secret)) {
    return [standardWebhookKey(secret)];
  }
  return [Buffer.from(secret, 'base64'), utf8];
}

function signatureOf(key: Buffer, id: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', key)
    .update(headerBytes(`${id}.${timestamp}.`))
    .update(body)
    .digest();
}

/**
 * Signs a message the way a Standard Webhooks sender does: `v1,<base64>`. The one signer of the
 * gateway: the outbound sender's headers (`standardWebhookHeaders`) and the verifier below share
 * its key and HMAC.
 */
export function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: string,
  body: Buffer | string,
): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return `v1,${signatureOf(standardWebhookKey(secret), id, timestamp, bytes).toString('base64')}`;
}

/** The headers of a signed Standard Webhooks request. */
export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The three headers a Standard Webhooks sender adds to a POST of `body`: its message id (the same
 * on every retry of one message, so a receiver can drop duplicates), the time of this try in Unix
 * seconds, and the signature of both with the body.
 *
 * @example
 * standardWebhookHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1_700_000_000_000, '{}')
 * // { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,…' }
 */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  nowMs: number,
  body: Buffer | string,
): StandardWebhookHeaders {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signStandardWebhook(secret, id, timestamp, body),
  };
}

/** What a request carried: the three headers (undefined when absent) and the raw body. */
export interface StandardWebhookMessage {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string;
  body: Buffer;
}

export type StandardWebhookCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a message against every secret of a rotation (each under every key it may stand for):
 * the timestamp within `toleranceS` of
 * `nowMs`, and one of the `v1` signatures the HMAC under one of the secrets. Every pair is
 * compared in constant time; a malformed header is a refusal, never a throw.
 */
export function verifyStandardWebhook(
  message: StandardWebhookMessage,
  secrets: readonly string[],
  nowMs: number,
  toleranceS: number,
): StandardWebhookCheck {
  const { id, timestamp, signature, body } = message;
  if (id === undefined || timestamp === undefined) {
    return { ok: false, reason: 'the id or timestamp header is missing' };
  }
  if (![id, timestamp, signature].every(isPrintableAscii)) {
    return { ok: false, reason: 'a signature header is not printable ASCII' };
  }
  if (!isWithinWindow(timestamp, 1000, nowMs, toleranceS)) {
    return { ok: false, reason: `the timestamp is not a Unix time within ${toleranceS} s` };
  }
  // Other versions (`v1a` ed25519) are not ours to check; a header of only those is refused.
  const given = signature
    .split(' ')
    .map((entry) => V1_SIGNATURE.exec(entry)?.[1])
    .filter((value) => value !== undefined)
    .map((value) => Buffer.from(value, 'base64'));
  if (given.length === 0) return { ok: false, reason: 'no well-formed v1 signature' };
  let valid = false;
  for (const key of secrets.flatMap(standardWebhookVerifyKeys)) {
    const expected = signatureOf(key, id, timestamp, body);
    for (const candidate of given) if (digestsEqual(expected, candidate)) valid = true;
  }
  return valid ? { ok: true } : { ok: false, reason: 'signature does not match' };
}
