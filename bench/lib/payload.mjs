/**
 * The benchmark's deliveries: the forge's `pull_request.opened` test fixture trimmed to about
 * 6 KB of compact JSON (nested repository copies reduced to their identifying fields, the PR body
 * padded), with a distinct PR number per request and the forge's signature headers.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BENCH_SECRET = 'bench-secret-not-for-production-0123456789';
const PAYLOAD_BYTES = 6 * 1024;
const NUMBER_MARK = 987654321;

/** @param {Record<string, unknown>} repo */
function repoSummary(repo) {
  const { id, node_id, name, full_name, private: isPrivate, html_url, url, default_branch } = repo;
  const owner = /** @type {Record<string, unknown>} */ (repo.owner);
  return {
    id,
    node_id,
    name,
    full_name,
    private: isPrivate,
    owner: { login: owner.login, id: owner.id, type: owner.type },
    html_url,
    url,
    default_branch,
  };
}

/** @param {Record<string, unknown>} ref a PR's `head` or `base` */
function refSummary(ref) {
  const user = /** @type {Record<string, unknown>} */ (ref.user);
  return {
    ...ref,
    user: { login: user.login, id: user.id, type: user.type },
    repo: repoSummary(/** @type {Record<string, unknown>} */ (ref.repo)),
  };
}

/** The trimmed payload as JSON text with `NUMBER_MARK` where the PR number goes. */
function payloadTemplate() {
  const fixture = JSON.parse(
    fs.readFileSync(path.join(repoRoot, 'test/fixtures/forge/pull_request_opened.json'), 'utf8'),
  );
  const pr = fixture.pull_request;
  const trimmed = {
    action: 'opened',
    number: NUMBER_MARK,
    pull_request: {
      ...pr,
      number: NUMBER_MARK,
      head: refSummary(pr.head),
      base: refSummary(pr.base),
      assignees: [],
      requested_reviewers: [],
      _links: undefined,
      body: '',
    },
    repository: repoSummary(fixture.repository),
    sender: fixture.sender,
  };
  const unpadded = JSON.stringify(trimmed).length;
  const filler = 'This change updates the README and the build notes. ';
  trimmed.pull_request.body = filler
    .repeat(Math.ceil(PAYLOAD_BYTES / filler.length))
    .slice(0, Math.max(0, PAYLOAD_BYTES - unpadded));
  return JSON.stringify(trimmed);
}

/** Bodies for PR numbers; the text around the number is built once. */
export function payloadFactory() {
  const [before, middle, after] = payloadTemplate().split(String(NUMBER_MARK));
  if (before === undefined || middle === undefined || after === undefined) {
    throw new Error('the payload template lost its number marks');
  }
  /** @param {number} number */
  return (number) => `${before}${number}${middle}${number}${after}`;
}

/** @param {string} body */
export function signBody(body) {
  return `sha256=${createHmac('sha256', BENCH_SECRET).update(body).digest('hex')}`;
}

/**
 * A request as the forge sends it (its real header names, which all three receivers read).
 * @param {string} body
 * @param {string} deliveryId
 */
export function forgeHeaders(body, deliveryId) {
  return {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/bench',
    'x-github-event': 'pull_request',
    'x-github-delivery': deliveryId,
    'x-hub-signature-256': signBody(body),
  };
}
