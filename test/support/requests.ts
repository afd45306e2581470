/** Real forge and altforge requests: the exact bytes sent are the bytes signed. */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fixturesDir } from './gateway.js';

/** A fixture file's bytes, unchanged (pretty-printed, as stored). */
export function fixture(name: string): Buffer {
  return fs.readFileSync(path.join(fixturesDir, name));
}

export function signForge(body: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface Sent {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function post(
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<Sent> {
  const response = await fetch(url, { method: 'POST', body, headers });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: the test looks at `text`
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

let counter = 0;
/** A delivery id that no other request in this run uses. */
export function newDeliveryId(): string {
  counter++;
  return `${process.pid}-${Date.now()}-${counter}`;
}

/** POSTs a forge delivery signed with `secret` (canonical headers unless `aliases`). */
export function sendForge(
  baseUrl: string,
  route: string,
  options: {
    body: Buffer | string;
    secret: string;
    event: string;
    deliveryId?: string;
    aliases?: boolean;
    headers?: Record<string, string>;
  },
): Promise<Sent> {
  const names = options.aliases
    ? { event: 'X-GitHub-Event', signature: 'X-Hub-Signature-256', delivery: 'X-GitHub-Delivery' }
    : { event: 'X-Forge-Event', signature: 'X-Forge-Signature-256', delivery: 'X-Forge-Delivery' };
  return post(`${baseUrl}/webhooks/${route}`, options.body, {
    'Content-Type': 'application/json',
    [names.event]: options.event,
    [names.signature]: signForge(options.body, options.secret),
    [names.delivery]: options.deliveryId ?? newDeliveryId(),
    ...options.headers,
  });
}

/** POSTs an altforge delivery with its token (canonical headers unless `aliases`). */
export function sendAltforge(
  baseUrl: string,
  route: string,
  options: {
    body: Buffer | string;
    token: string;
    event?: string;
    deliveryId?: string;
    aliases?: boolean;
    headers?: Record<string, string>;
  },
): Promise<Sent> {
  const names = options.aliases
    ? { event: 'X-Gitlab-Event', token: 'X-Gitlab-Token', delivery: 'X-Gitlab-Event-UUID' }
    : { event: 'X-Altforge-Event', token: 'X-Altforge-Token', delivery: 'Idempotency-Key' };
  return post(`${baseUrl}/webhooks/${route}`, options.body, {
    'Content-Type': 'application/json',
    [names.event]: options.event ?? 'Merge Request Hook',
    [names.token]: options.token,
    [names.delivery]: options.deliveryId ?? newDeliveryId(),
    ...options.headers,
  });
}
