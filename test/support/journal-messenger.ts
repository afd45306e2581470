/**
 * A fake Slack Web API (the `messenger_c` target) on 127.0.0.1 for the journal tests: it answers
 * `auth.test`, records every `chat.postMessage` with what it answered, fails chosen messages
 * with HTTP 500, and can hold messages unanswered (so a kill lands while one is at the target).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake did with one message. */
type MessageOutcome =
  /** Answered `{"ok":true}`: the target took it. */
  | 'acknowledged'
  /** Answered HTTP 500. */
  | 'failed'
  /** Not answered yet (`hold()`). */
  | 'held'
  /** The sender hung up while the message was held: it was never acknowledged. */
  | 'dropped';

interface SlackMessage {
  channel: string;
  text: string;
  authorization: string | undefined;
  receivedAt: number;
  outcome: MessageOutcome;
}

export interface FakeSlack {
  /** The `api_base` to configure. */
  url: string;
  /** Every `chat.postMessage` received, in order. */
  readonly messages: readonly SlackMessage[];
  /** Answers the next `times` messages that have the word `match` with HTTP 500. */
  failTimes(match: string, times: number): void;
  /** Answers every message that has the word `match` with HTTP 500, until `stopFailing`. */
  failAlways(match: string): void;
  stopFailing(match: string): void;
  /** From now on, messages are received but not answered. */
  hold(): void;
  /** Answers the held messages whose sender is still there, and stops holding. */
  release(): void;
  /** How many messages with the word `match` (a delivery id, say) were acknowledged. */
  acknowledged(match: string): number;
  close(): Promise<void>;
}

/** The `platforms.messenger_c` block that points the gateway at the fake. */
export function fakeSlackPlatform(fake: FakeSlack): Record<string, unknown> {
  return {
    enabled: true,
    token: 'xoxb-journal-test-token',
    home_channel: 'C1',
    api_base: fake.url,
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** True when `word` is one of the whitespace-separated words of `text` (id-1 is not in id-10). */
export function hasWord(text: string, word: string): boolean {
  return text.split(/\s+/).includes(word);
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export async function startFakeSlack(): Promise<FakeSlack> {
  const messages: SlackMessage[] = [];
  const failures = new Map<string, number>();
  const held: { message: SlackMessage; res: http.ServerResponse }[] = [];
  let holding = false;

  const shouldFail = (text: string): boolean => {
    for (const [match, remaining] of failures) {
      if (!hasWord(text, match) || remaining <= 0) continue;
      failures.set(match, remaining - 1);
      return true;
    }
    return false;
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      if (req.method === 'POST' && req.url === '/api/auth.test') {
        answer(res, 200, { ok: true, user: 'bot', team: 'journal-tests' });
        return;
      }
      if (req.method !== 'POST' || req.url !== '/api/chat.postMessage') {
        answer(res, 404, { ok: false, error: 'unknown_method' });
        return;
      }
      const body = JSON.parse(raw) as { channel?: unknown; text?: unknown };
      const message: SlackMessage = {
        channel: String(body.channel),
        text: String(body.text),
        authorization: req.headers.authorization,
        receivedAt: Date.now(),
        outcome: 'held',
      };
      messages.push(message);
      if (holding) {
        held.push({ message, res });
        res.once('close', () => {
          if (message.outcome === 'held') message.outcome = 'dropped';
        });
        return;
      }
      if (shouldFail(message.text)) {
        message.outcome = 'failed';
        answer(res, 500, { ok: false, error: 'internal_error' });
        return;
      }
      message.outcome = 'acknowledged';
      answer(res, 200, { ok: true, channel: message.channel, ts: String(Date.now() / 1000) });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    failTimes: (match, times) => failures.set(match, times),
    failAlways: (match) => failures.set(match, Infinity),
    stopFailing: (match) => failures.delete(match),
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const { message, res } of held.splice(0)) {
        if (message.outcome !== 'held' || res.destroyed) continue;
        message.outcome = 'acknowledged';
        answer(res, 200, { ok: true, channel: message.channel, ts: String(Date.now() / 1000) });
      }
    },
    acknowledged: (match) =>
      messages.filter((m) => m.outcome === 'acknowledged' && hasWord(m.text, match)).length,
    close: async () => {
      holding = false;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
