/**
 * `platforms.webhook.extra.outbound`: where the gateway POSTs its deliveries' lifecycle events,
 * signed as Standard Webhooks. The URL and secret rules are shared with the `webhook` target's
 * endpoints (`@webhook-gateway/deliver-webhook`).
 */
import { z } from 'zod';
import { LIFECYCLE_EVENTS } from '../lifecycle-events.js';
import { isLoopbackHost } from '../loopback.js';

const SECRET_PREFIX = 'whsec_';
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The Standard Webhooks spec's bounds on a signing key. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

const SECRET_HINT = 'make one with: echo "whsec_$(openssl rand -base64 32)"';

/**
 * A Standard Webhooks signing secret: `whsec_<base64>` or the base64 alone, of 24 to 64 bytes.
 * Both come out as `whsec_<base64>`, so the signer keys them as the spec's libraries do (the
 * base64-decoded bytes), whichever way it was written.
 */
export const standardWebhookSecretSchema = z.string().transform((value, ctx) => {
  const base64 = value.startsWith(SECRET_PREFIX) ? value.slice(SECRET_PREFIX.length) : value;
  if (base64 === '' || !STRICT_BASE64.test(base64)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a Standard Webhooks secret, whsec_ and base64 (or the base64 alone); ${SECRET_HINT}`,
    });
    return z.NEVER;
  }
  const bytes = Buffer.from(base64, 'base64').length;
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) {
    ctx.addIssue({
      code: 'custom',
      message: `the secret's key is ${bytes} bytes; Standard Webhooks keys are ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes; ${SECRET_HINT}`,
    });
    return z.NEVER;
  }
  return `${SECRET_PREFIX}${base64}`;
});

/**
 * Where the gateway POSTs: `https://…`, or `http://…` on a loopback host (127.0.0.1, ::1,
 * localhost). No user or password in it: the signature is what authenticates a request.
 */
export const outboundUrlSchema = z
  .url({ protocol: /^https?$/, error: 'expected an https:// URL' })
  .superRefine((value, ctx) => {
    const url = new URL(value);
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({
        code: 'custom',
        message: 'put no user or password in the URL: the request is signed with the secret',
      });
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected https:// (plain http is only for loopback hosts, not ${url.hostname})`,
      });
    }
  });

/** One subscriber of lifecycle events. */
const outboundSubscriptionSchema = z.strictObject({
  url: outboundUrlSchema,
  secret: standardWebhookSecretSchema,
  /** Which events it gets; every one by default. */
  events: z
    .array(z.enum(LIFECYCLE_EVENTS))
    .min(1, 'list at least one event, or leave events out for all')
    .default([...LIFECYCLE_EVENTS]),
  /** The routes whose deliveries it hears about; every route when left out. */
  routes: z
    .array(z.string().min(1))
    .min(1, 'list at least one route, or leave routes out for all')
    .optional(),
  /** Whether events carry the answer's first 1,000 characters. */
  include_answer: z.boolean().default(false),
});

/** `extra.outbound`: its subscribers, each URL once. */
export const outboundSchema = z
  .array(outboundSubscriptionSchema)
  .default([])
  .superRefine((subscriptions, ctx) => {
    const seen = new Set<string>();
    subscriptions.forEach((subscription, index) => {
      if (seen.has(subscription.url)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'url'],
          message: `${subscription.url} is listed twice; merge its events and routes into one entry`,
        });
      }
      seen.add(subscription.url);
    });
  });

export type OutboundSubscriptionConfig = z.output<typeof outboundSubscriptionSchema>;
