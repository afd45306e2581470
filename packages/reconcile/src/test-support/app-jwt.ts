/**
 * The forge's check of a GitHub App's JWT, for the fake: `Authorization: Bearer <jwt>`, RS256
 * signed by the App's key, issued by the App's id, live now and for at most 10 minutes. Says why
 * a JWT is refused, in the forge's words.
 */
import { createPublicKey, verify } from 'node:crypto';
import { z } from 'zod';

/** The App the fake forge plays: JWTs must carry its id and verify with its public key. */
export interface FakeAppIdentity {
  id: number;
  /** PEM (SPKI). */
  publicKey: string;
}

const header = z.object({ alg: z.literal('RS256') });
const claims = z.object({
  iat: z.number(),
  exp: z.number(),
  iss: z.union([z.number(), z.string()]),
});

const UNDECODABLE = 'A JSON web token could not be decoded';

/** Why the forge refuses `authorization`, or undefined for the App's live JWT. */
export function appJwtProblem(
  authorization: string | undefined,
  app: FakeAppIdentity,
  nowMs = Date.now(),
): string | undefined {
  const jwt = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!jwt) return UNDECODABLE;
  const [head = '', body = '', signature = ''] = jwt.split('.');
  const decode = (part: string): unknown =>
    JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  try {
    header.parse(decode(head));
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${head}.${body}`),
      createPublicKey(app.publicKey),
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return UNDECODABLE;
    const { iat, exp, iss } = claims.parse(decode(body));
    const now = nowMs / 1000;
    if (String(iss) !== String(app.id)) return "'Issuer' claim ('iss') must be the App's ID";
    if (iat > now + 60) {
      return "'Issued at' claim ('iat') must be an Integer representing a time in the past.";
    }
    if (exp < now) return "'Expiration time' claim ('exp') is in the past";
    if (exp - iat > 600) return "'Expiration time' claim ('exp') is too far in the future";
  } catch {
    return UNDECODABLE;
  }
  return undefined;
}
