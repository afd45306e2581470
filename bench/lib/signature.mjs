/** The forge's signature check every bench receiver does: HMAC-SHA256, compared in constant time. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * @param {string} secret
 * @param {Buffer} body
 * @param {string | string[] | undefined} header `X-Hub-Signature-256`
 */
export function validSignature(secret, body, header) {
  if (typeof header !== 'string' || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header.slice(7), 'hex'));
}
