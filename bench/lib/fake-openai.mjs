/**
 * A slow OpenAI-compatible chat-completions server on 127.0.0.1: every answer takes `delayMs`,
 * is a final message (no tool calls) with `usage`, and the server counts what it served and how
 * many requests it held at once.
 */
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.mjs';

/**
 * @param {number} delayMs
 * @returns {Promise<{ baseUrl: string, stats: { answered: number, inFlight: number, maxInFlight: number }, close: () => Promise<void> }>}
 */
export async function startSlowOpenAI(delayMs) {
  const stats = { answered: 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such route"}}');
        return;
      }
      let model = 'unknown';
      try {
        model = JSON.parse(Buffer.concat(chunks).toString('utf8')).model ?? model;
      } catch {
        // answered anyway: the benchmark is about time, not validation
      }
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      const timer = setTimeout(() => {
        stats.inFlight--;
        stats.answered++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-bench-${stats.answered}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'Looks good to me.' },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912 },
          }),
        );
      }, delayMs);
      res.on('close', () => {
        if (!res.writableEnded) {
          clearTimeout(timer);
          stats.inFlight--;
        }
      });
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, stats, close };
}
