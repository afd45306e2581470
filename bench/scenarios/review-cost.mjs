/**
 * Review cost: the same replayed pull requests (this repository's own history, opened on one
 * commit and pushed 1–5 times) reviewed three ways by the gateway, each on a fresh home, against
 * one fake forge (the real `gh` over TLS) and one fake model that counts tokens with the gateway's
 * tokenizer, caches prefixes as OpenAI does and answers after a fixed latency model:
 * - `recipe`: the review prompt `init` wrote before prepared context: the agent fetches the diff
 *   (or the compare since the last reviewed head) with the terminal tool, whose output `init`'s
 *   config cut to 16 KB; `recipe-whole` the same with the whole output;
 * - `prepared`: the gateway hands the pruned, incremental diff, the repository's instructions and
 *   guidance in the prompt (stable part first), no tool;
 * - `prepared-chunks`: the same with `review.chunks: 3`.
 * For each reviewed push: prompt, cached prompt and completion tokens, model turns, and the time
 * from the 202 to the delivered answer, read from the journal.
 */
import path from 'node:path';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { startReviewForge, OWNER, REPO } from '../lib/fake-review-forge.mjs';
import { LATENCY, startReviewModel } from '../lib/fake-review-model.mjs';
import { pollUntil, progress } from '../lib/log.mjs';
import { BENCH_SECRET, forgeHeaders } from '../lib/payload.mjs';
import { GATEWAY_LISTENING, cliPath, makeHome, removeHome, spawnListening } from '../lib/proc.mjs';
import { HISTORY_HEAD, replayedPulls } from '../lib/review-history.mjs';
import fs from 'node:fs';
import os from 'node:os';

const ROUTE = 'reviews';

/** The review prompt `init` wrote before the gateway prepared the context. */
const RECIPE_PROMPT = `Review pull request #{number} in {repository.full_name}: "{pull_request.title}".
Last reviewed head: "{_gateway.previous_head_sha}" (empty: not reviewed yet).
If it is set, review only what changed since then:
  gh api repos/{repository.full_name}/compare/{_gateway.previous_head_sha}...{pull_request.head.sha}
Otherwise fetch the whole diff with: gh pr diff {number} --repo {repository.full_name}`;

/** The prepared-context prompt: the stable part (guidance, instructions) before the diff. */
const PREPARED_PROMPT = `Review the pull request's diff below. The repository's guidance and
instructions come first; the diff is all you need, and no tool call is required.

{_gateway.guidance}

{_gateway.instructions}

Pull request #{number} in {repository.full_name}: "{pull_request.title}".
{_gateway.diff_stats}

{_gateway.diff}`;

/**
 * The terminal's output cap of the recipe as `init` wrote it (16 KB) cuts a large diff short, so
 * that row reviews less than the prepared rows read; `recipe-whole` lifts the cap to show what
 * reading the whole change through the tool costs.
 */
const ROWS = [
  { id: 'recipe', prompt: RECIPE_PROMPT, terminal: true, review: {} },
  {
    id: 'recipe-whole',
    prompt: RECIPE_PROMPT,
    terminal: true,
    maxOutputBytes: 8 * 1024 * 1024,
    review: {},
  },
  { id: 'prepared', prompt: PREPARED_PROMPT, terminal: false, review: { incremental: true } },
  {
    id: 'prepared-chunks',
    prompt: PREPARED_PROMPT,
    terminal: false,
    review: { incremental: true, chunks: 3 },
  },
];

/** @param {{ base: string, number: number, title: string }} pull @param {string} head @param {string} action */
function pullPayload(pull, head, action) {
  return {
    action,
    number: pull.number,
    pull_request: {
      number: pull.number,
      title: pull.title,
      draft: false,
      labels: [],
      user: { login: 'octocat' },
      head: { sha: head, ref: `pull-${pull.number}` },
      base: { sha: pull.base, ref: 'main' },
    },
    repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
    sender: { login: 'octocat', type: 'User' },
  };
}

function gatewayConfigFor(row, model, forge) {
  return {
    agent: {
      runner: 'openai',
      base_url: model.baseUrl,
      model: 'bench-review-model',
      max_turns: 6,
      timeout_s: 600,
      terminal: {
        enabled: row.terminal,
        ...(row.maxOutputBytes === undefined ? {} : { max_output_bytes: row.maxOutputBytes }),
        env_allowlist: ['GH_HOST', 'GH_ENTERPRISE_TOKEN', 'SSL_CERT_FILE', 'GH_CONFIG_DIR'],
        allow: ['gh pr diff *', 'gh api repos/*/compare/*'],
      },
    },
    review: row.review,
    platforms: {
      forge: { host: forge.host, token: forge.token },
      webhook: {
        extra: {
          host: '127.0.0.1',
          port: 0,
          secret: BENCH_SECRET,
          rate_limit: 100_000,
          concurrency: 4,
          routes: {
            [ROUTE]: {
              events: ['pull_request'],
              actions: ['opened', 'synchronize'],
              prompt: row.prompt,
              deliver: 'log',
            },
          },
        },
      },
    },
  };
}

async function send(url, payload, deliveryId) {
  const body = JSON.stringify(payload);
  const response = await fetch(`${url}/webhooks/${ROUTE}`, {
    method: 'POST',
    body,
    headers: forgeHeaders(body, deliveryId),
  });
  if (response.status !== 202)
    throw new Error(`${deliveryId}: ${response.status} ${await response.text()}`);
}

/** The journal's row of a delivery once it has ended. */
async function finished(home, deliveryId) {
  const store = openSqliteStore({ path: path.join(home, 'state.db') });
  try {
    let row;
    const done = await pollUntil(
      async () => {
        row = (await store.list({ limit: 100_000 })).find((r) => r.deliveryId === deliveryId);
        return row !== undefined && !['queued', 'running'].includes(row.status);
      },
      900_000,
      200,
    );
    if (!done) throw new Error(`${deliveryId} did not finish`);
    return row;
  } finally {
    await store.close();
  }
}

/** Reviews every push of every pull request on one row; the figures of each reviewed push. */
async function runRow(row, pulls, model, forge, concurrency) {
  const home = makeHome();
  const ghConfig = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gh-'));
  const config = gatewayConfigFor(row, model, forge);
  fs.writeFileSync(path.join(home, 'config.yaml'), `${JSON.stringify(config, null, 2)}\n`);
  const gateway = await spawnListening([cliPath, 'gateway', '--home', home], GATEWAY_LISTENING, {
    env: {
      GH_HOST: forge.host,
      GH_ENTERPRISE_TOKEN: forge.token,
      SSL_CERT_FILE: forge.certFile,
      GH_CONFIG_DIR: ghConfig,
    },
  });
  const pushes = [];
  try {
    const queue = [...pulls];
    const worker = async () => {
      for (let pull = queue.shift(); pull; pull = queue.shift()) {
        for (const [index, head] of pull.pushes.entries()) {
          forge.push(pull.number, head);
          const deliveryId = `${row.id}-${pull.number}-${index + 1}`;
          await send(
            gateway.url,
            pullPayload(pull, head, index === 0 ? 'opened' : 'synchronize'),
            deliveryId,
          );
          const record = await finished(home, deliveryId);
          const usage = record.agent?.usage;
          pushes.push({
            pull: pull.number,
            push: index + 1,
            status: record.status,
            promptTokens: usage?.promptTokens ?? 0,
            cachedPromptTokens: usage?.cachedPromptTokens ?? 0,
            completionTokens: usage?.completionTokens ?? 0,
            turns: record.agent?.turns ?? 0,
            answerMs: (record.finishedAt ?? record.receivedAt) - record.receivedAt,
            footer: (record.answer ?? '').includes('**Not reviewed**'),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await gateway.stop();
    removeHome(home);
    fs.rmSync(ghConfig, { recursive: true, force: true });
  }
  return pushes;
}

function totals(pushes) {
  const sum = (key) => pushes.reduce((total, push) => total + push[key], 0);
  const promptTokens = sum('promptTokens');
  const cachedPromptTokens = sum('cachedPromptTokens');
  return {
    reviews: pushes.length,
    delivered: pushes.filter((push) => push.status === 'delivered').length,
    promptTokens,
    cachedPromptTokens,
    uncachedPromptTokens: promptTokens - cachedPromptTokens,
    completionTokens: sum('completionTokens'),
    turns: sum('turns'),
    answerMs: sum('answerMs'),
    withSkippedFooter: pushes.filter((push) => push.footer).length,
  };
}

/**
 * @param {{ pulls: number, concurrency: number }} settings
 */
export async function measureReviewCost(settings) {
  const pulls = replayedPulls(settings.pulls);
  const reviews = pulls.reduce((total, pull) => total + pull.pushes.length, 0);
  const forge = await startReviewForge({ pulls });
  const rows = {};
  try {
    for (const row of ROWS) {
      // One model per row: a row's prefix cache must not serve another's prompts.
      const model = await startReviewModel();
      try {
        progress(`review cost: ${row.id}, ${pulls.length} pull requests, ${reviews} pushes`);
        const pushes = await runRow(row, pulls, model, forge, settings.concurrency);
        rows[row.id] = { totals: totals(pushes), pushes };
        const t = rows[row.id].totals;
        progress(
          `  ${row.id}: ${t.delivered}/${t.reviews} delivered, prompt ${t.promptTokens} (cached ${t.cachedPromptTokens}), completion ${t.completionTokens}, turns ${t.turns}, ${(t.answerMs / 1000).toFixed(1)} s`,
        );
      } finally {
        await model.close();
      }
    }
  } finally {
    await forge.close();
  }
  const ratio = (row, base, key) => rows[row].totals[key] / rows[base].totals[key];
  const ratiosTo = (base) =>
    Object.fromEntries(
      ['prepared', 'prepared-chunks'].map((id) => [
        id,
        {
          promptTokens: ratio(id, base, 'promptTokens'),
          uncachedPromptTokens: ratio(id, base, 'uncachedPromptTokens'),
          answerMs: ratio(id, base, 'answerMs'),
        },
      ]),
    );
  return {
    source: `this repository's first-parent history up to ${HISTORY_HEAD.slice(0, 7)}`,
    pulls: pulls.length,
    reviews,
    latency: LATENCY,
    rows: Object.fromEntries(Object.entries(rows).map(([id, row]) => [id, row.totals])),
    ratios: ratiosTo('recipe'),
    ratiosToWhole: ratiosTo('recipe-whole'),
    pushes: Object.fromEntries(Object.entries(rows).map(([id, row]) => [id, row.pushes])),
  };
}
