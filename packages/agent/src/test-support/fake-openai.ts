/**
 * A fake OpenAI-compatible server for tests: a real HTTP server on 127.0.0.1 speaking the
 * chat-completions wire format, answering from a script and recording every request it got.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const recordedMessageSchema = z.looseObject({
  role: z.string(),
  content: z.string().nullish(),
  tool_call_id: z.string().optional(),
  tool_calls: z
    .array(
      z.object({
        id: z.string(),
        type: z.literal('function'),
        function: z.object({ name: z.string(), arguments: z.string() }),
      }),
    )
    .optional(),
});

const recordedBodySchema = z.looseObject({
  model: z.string(),
  messages: z.array(recordedMessageSchema),
  tools: z.array(z.unknown()).optional(),
  temperature: z.number().optional(),
});

export type RecordedMessage = z.infer<typeof recordedMessageSchema>;

/** One request the fake got. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: z.infer<typeof recordedBodySchema>;
  /** The body as it came over the wire: what a provider's prefix cache compares. */
  raw: string;
}

/** One scripted answer. */
interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON; a string is sent as it is. */
  body?: unknown;
  /** Waits this long before answering (aborted requests stop the wait). */
  delayMs?: number;
}

/** An answer made from the request it answers (e.g. to echo the model name). */
export type Responder = (request: RecordedRequest) => ScriptedResponse;

export type Script = ScriptedResponse | Responder;

export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1`: use as `agent.base_url`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Appends answers, used one per request in order. */
  script(...responses: Script[]): void;
  close(): Promise<void>;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** OpenAI's: how many of the prompt tokens its prompt cache served. */
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

const DEFAULT_USAGE: Usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function completion(
  model: string,
  message: Record<string, unknown>,
  finishReason: string,
  usage: Usage,
) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason },
    ],
    usage,
  };
}

/** A final answer: a message without tool calls. */
export function answer(content: string, usage: Usage = DEFAULT_USAGE): Responder {
  return (request) => ({ body: completion(request.body.model, { content }, 'stop', usage) });
}

/** A turn that asks for tool calls; `arguments` objects are sent as JSON text. */
export function callTools(
  calls: { id?: string; name?: string; arguments: string | Record<string, unknown> }[],
  usage: Usage = DEFAULT_USAGE,
): Responder {
  return (request) => ({
    body: completion(
      request.body.model,
      {
        content: null,
        tool_calls: calls.map((call, index) => ({
          id: call.id ?? `call_${index + 1}`,
          type: 'function',
          function: {
            name: call.name ?? 'terminal',
            arguments:
              typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          },
        })),
      },
      'tool_calls',
      usage,
    ),
  });
}

/** An OpenAI-style error answer. */
export function failure(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Script {
  return { status, headers, body: { error: { message, type: 'fake_error' } } };
}

/** The tool messages of a recorded request, in order. */
export function toolMessages(request: RecordedRequest | undefined): RecordedMessage[] {
  return (request?.body.messages ?? []).filter((message) => message.role === 'tool');
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queue: Script[] = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const send = (response: ScriptedResponse) => {
        const payload =
          typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? {});
        res.writeHead(response.status ?? 200, {
          'content-type': 'application/json',
          ...response.headers,
        });
        res.end(payload);
      };
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        send({ status: 404, body: { error: { message: `fake: no route ${req.method} ${path}` } } });
        return;
      }
      const recorded: RecordedRequest = {
        method: req.method,
        path,
        authorization: req.headers.authorization,
        body: recordedBodySchema.parse(JSON.parse(text)),
        raw: text,
      };
      requests.push(recorded);
      const next = queue.shift();
      const response: ScriptedResponse = !next
        ? { status: 500, body: { error: { message: 'fake: no scripted response left' } } }
        : typeof next === 'function'
          ? next(recorded)
          : next;
      if (!response.delayMs) {
        send(response);
        return;
      }
      const timer = setTimeout(() => send(response), response.delayMs);
      res.on('close', () => clearTimeout(timer));
    })().catch((error: unknown) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake: bad request: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
