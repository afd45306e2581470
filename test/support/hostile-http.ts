/**
 * Raw-socket clients for hostile-input tests: requests `fetch` refuses to send (a `..` path kept
 * as written, thousands of headers, unknown methods, lying lengths), uploads that never end,
 * clients that never finish, and the gateway's memory read from /proc. Every wait is bounded.
 */
import fs from 'node:fs';
import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  response: string;
  /** True when the server closed (or reset) the connection within the wait. */
  closedByServer: boolean;
  /** From connect to close, or to the end of the wait. */
  elapsedMs: number;
  bytesSent: number;
}

export interface RawOptions {
  /** Give up (and close from this side) after this long. */
  waitMs?: number;
  /** Stop waiting once the answer so far satisfies this (e.g. a complete JSON body). */
  doneWhen?: (response: string) => boolean;
  /** Sent every `everyMs` after the request, until the server closes or the wait ends. */
  trickle?: { data: string; everyMs: number };
  /** End this side after the request (the server may still answer). */
  halfClose?: boolean;
}

/** Writes `request` as it is on a fresh loopback connection and collects what comes back. */
export function rawExchange(
  port: number,
  request: string | Buffer,
  options: RawOptions = {},
): Promise<RawExchange> {
  const waitMs = options.waitMs ?? 5_000;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let response = '';
    let bytesSent = 0;
    let settled = false;
    let trickleTimer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      clearInterval(trickleTimer);
      socket.destroy();
      resolve({ response, closedByServer, elapsedMs: Date.now() - started, bytesSent });
    };
    const giveUp = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      response += chunk;
      if (options.doneWhen?.(response)) finish(false);
    });
    socket.on('error', () => finish(true));
    // allowHalfOpen keeps the socket after the server's FIN: its end is the server closing.
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      if (request.length > 0) {
        socket.write(request);
        bytesSent += Buffer.byteLength(request);
      }
      if (options.halfClose) socket.end();
      const trickle = options.trickle;
      if (trickle) {
        trickleTimer = setInterval(() => {
          if (!socket.writable) return;
          socket.write(trickle.data);
          bytesSent += Buffer.byteLength(trickle.data);
        }, trickle.everyMs);
      }
    });
  });
}

/** A complete HTTP/1.1 request with `Connection: close`, body length declared unless overridden. */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): string {
  const all: Record<string, string> = {
    Host: '127.0.0.1',
    Connection: 'close',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  };
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join('')}\r\n${body}`;
}

/** The status code of a raw HTTP answer, if one arrived. */
export function statusOf(response: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(response);
  return match ? Number(match[1]) : undefined;
}

/** The JSON body of a raw HTTP answer (undefined when there is none or it is not JSON). */
export function jsonBodyOf(response: string): unknown {
  const start = response.indexOf('\r\n\r\n');
  if (start < 0) return undefined;
  try {
    return JSON.parse(response.slice(start + 4)) as unknown;
  } catch {
    return undefined;
  }
}

/** True once a raw answer holds its head and a complete JSON object body. */
export function hasJsonAnswer(response: string): boolean {
  return jsonBodyOf(response) !== undefined;
}

/**
 * Streams a chunked body without Content-Length, far past any limit, and stops as soon as the
 * server answers; `bytesSent` tells how much of `maxBytes` went out before that.
 */
export function chunkedFlood(
  port: number,
  target: string,
  headers: Record<string, string>,
  maxBytes: number,
): Promise<{ response: string; bytesSent: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let bytesSent = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ response, bytesSent });
    };
    const giveUp = setTimeout(finish, 20_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      response += chunk;
      if (hasJsonAnswer(response)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    const head = Object.entries({ Host: '127.0.0.1', ...headers, 'Transfer-Encoding': 'chunked' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${target} HTTP/1.1\r\n${head}\r\n`);
    const chunk = `4000\r\n${'x'.repeat(0x4000)}\r\n`;
    const pump = () => {
      while (!finished && bytesSent < maxBytes) {
        bytesSent += 0x4000;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

/** The resident set size of a process in KiB, from /proc (Linux); undefined elsewhere. */
export function rssKiB(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `count` calls of `send` with at most `concurrency` in flight; results in call order. */
export async function inParallel<T>(
  count: number,
  concurrency: number,
  send: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await send(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** Delivery ids the gateway log reports as finished (delivered or failed for good). */
export function finishedDeliveryIds(logFile: string): Set<string> {
  const finished = new Set<string>();
  if (!fs.existsSync(logFile)) return finished;
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"delivered"') && !line.includes('failed for good')) continue;
    try {
      // A line still being written is skipped; the next read sees it whole.
      const entry = JSON.parse(line) as { msg?: unknown; delivery_id?: unknown };
      if (
        (entry.msg === 'delivered' || entry.msg === 'delivery failed for good') &&
        typeof entry.delivery_id === 'string'
      ) {
        finished.add(entry.delivery_id);
      }
    } catch {
      // partial line
    }
  }
  return finished;
}
