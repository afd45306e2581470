/**
 * A chat-completions server on 127.0.0.1 that behaves, for the review-cost scenario, as a model
 * billed by the token would:
 * - prompt tokens counted with the gateway's tokenizer (gpt-tokenizer, o200k_base) over the
 *   messages and tool definitions it is sent;
 * - prefix caching as OpenAI documents it: a prompt of at least 1,024 tokens is cached, and a
 *   later prompt that starts with a cached prefix has that prefix's tokens, in steps of 128,
 *   reported as `usage.prompt_tokens_details.cached_tokens`;
 * - a fixed latency model: time to first token, plus a time per uncached and per cached prompt
 *   token, plus a time per completion token;
 * - it does what the prompt asks: told to fetch the diff with `gh pr diff` and not yet given it,
 *   it calls the `terminal` tool with that command first (when the request offers that tool);
 *   given the diff, it answers with a review of a fixed length.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.mjs';
import { countTokens, encode as encodeTokens } from 'gpt-tokenizer';

/** The latency model, in milliseconds (fixed, so every row of one run is timed alike). */
export const LATENCY = {
  firstTokenMs: 250,
  perUncachedPromptTokenMs: 0.02,
  perCachedPromptTokenMs: 0.002,
  perCompletionTokenMs: 8,
};

/** What OpenAI documents: caching starts at 1,024 tokens and grows in steps of 128. */
const CACHE_MIN = 1_024;
const CACHE_STEP = 128;

/** The review the model writes: about 150 tokens, whatever it read. */
const REVIEW =
  'The change is coherent. Two remarks: the new branch in the parser does not handle an empty ' +
  'input, and the error message of the loader should name the key it failed on. The tests ' +
  'cover the happy path; add one for the empty case. Nothing else stands out: naming is clear, ' +
  'the functions are short, and the docs were updated with the code. Approve once the empty ' +
  'input is handled.';

/**
 * The commands a recipe prompt tells the agent to run: the compare since the last reviewed head
 * when the prompt names one, else the whole diff.
 */
const FETCH_COMPARE = /gh api repos\/[\w.-]+\/[\w.-]+\/compare\/[0-9a-f]{7,40}\.\.\.[0-9a-f]{7,40}/;
const FETCH_DIFF = /gh pr diff \d+ --repo [\w.-]+\/[\w.-]+/;

/** The text a request's messages and tools make, as the model reads it. */
function promptText(body) {
  const parts = [];
  if (Array.isArray(body.tools)) parts.push(JSON.stringify(body.tools));
  for (const message of body.messages ?? []) {
    parts.push(`<${message.role}>`);
    if (typeof message.content === 'string') parts.push(message.content);
    if (Array.isArray(message.tool_calls)) parts.push(JSON.stringify(message.tool_calls));
  }
  return parts.join('\n');
}

function hashOf(tokens) {
  return createHash('sha256').update(Uint32Array.from(tokens)).digest('hex');
}

/**
 * @returns {Promise<{ baseUrl: string, stats: { requests: number, promptTokens: number, cachedTokens: number, completionTokens: number }, close: () => Promise<void> }>}
 */
export async function startReviewModel() {
  const cache = new Set();
  const stats = { requests: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 };
  const reviewTokens = countTokens(REVIEW);

  /** Cached tokens of this prompt, then the prompt's own prefixes cached for the next. */
  function cachedPrefix(tokens) {
    let cached = 0;
    for (
      let k = Math.floor(tokens.length / CACHE_STEP) * CACHE_STEP;
      k >= CACHE_MIN;
      k -= CACHE_STEP
    ) {
      if (cache.has(hashOf(tokens.slice(0, k)))) {
        cached = k;
        break;
      }
    }
    for (let k = CACHE_MIN; k <= tokens.length; k += CACHE_STEP)
      cache.add(hashOf(tokens.slice(0, k)));
    return cached;
  }

  function answer(body) {
    const messages = body.messages ?? [];
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const hasToolResult = messages.some((m) => m.role === 'tool');
    const text = typeof lastUser?.content === 'string' ? lastUser.content : '';
    // Only a request that offers the terminal can be answered with a call to it: a diff that
    // merely quotes a `gh` command (this repository's own history does) is read, not run.
    const offersTerminal = (body.tools ?? []).some((tool) => tool.function?.name === 'terminal');
    const fetch = offersTerminal ? (FETCH_COMPARE.exec(text) ?? FETCH_DIFF.exec(text)) : null;
    if (fetch && !hasToolResult) {
      const call = { command: fetch[0] };
      return {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${stats.requests}`,
              type: 'function',
              function: { name: 'terminal', arguments: JSON.stringify(call) },
            },
          ],
        },
        finish: 'tool_calls',
        completionTokens: countTokens(JSON.stringify(call)) + 10,
      };
    }
    return {
      message: { role: 'assistant', content: REVIEW },
      finish: 'stop',
      completionTokens: reviewTokens,
    };
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such route"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const tokens = encodeTokens(promptText(body));
      const cached = cachedPrefix(tokens);
      const reply = answer(body);
      stats.requests++;
      stats.promptTokens += tokens.length;
      stats.cachedTokens += cached;
      stats.completionTokens += reply.completionTokens;
      const delayMs =
        LATENCY.firstTokenMs +
        (tokens.length - cached) * LATENCY.perUncachedPromptTokenMs +
        cached * LATENCY.perCachedPromptTokenMs +
        reply.completionTokens * LATENCY.perCompletionTokenMs;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-review-${stats.requests}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? 'bench-review-model',
            choices: [{ index: 0, message: reply.message, finish_reason: reply.finish }],
            usage: {
              prompt_tokens: tokens.length,
              completion_tokens: reply.completionTokens,
              total_tokens: tokens.length + reply.completionTokens,
              prompt_tokens_details: { cached_tokens: cached },
            },
          }),
        );
      }, delayMs);
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, stats, close };
}
