/**
 * Route scripts, translated from Hermes Agent's adapter tests (its route-script and script-output
 * tests): a program under `<home>/scripts/` gets the payload on stdin before the render and may
 * replace it, add to it, or drop the delivery. Here it runs in the attempt, after the 202, so a
 * failure is a failed attempt (retried) rather than Hermes' "ignored", and a drop is the journal
 * status `skipped`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupHomes, makeHome, runCli } from '../support/gateway.js';
import { finishedRow } from '../support/journal-read.js';
import {
  startRecordingGateway,
  webhookHome,
  type RecordingGateway,
} from '../support/recording-gateway.js';
import { newDeliveryId, post } from '../support/requests.js';

const PAYLOAD = { id: 7, action: 'opened', title: 'Disk alert', token_hint: 'none' };
const LEAKED = 'route-secret-never-printed-42';

/** The scripts of the routes below, as Hermes users write them. */
const SCRIPTS: Record<string, string> = {
  'record.py': [
    'import json, os, sys',
    'payload = json.load(sys.stdin)',
    'print(json.dumps({"seen": payload, "event": os.environ.get("HERMES_WEBHOOK_EVENT_TYPE"),',
    '  "delivery": os.environ.get("HERMES_WEBHOOK_DELIVERY_ID"),',
    '  "route": os.environ.get("WEBHOOK_ROUTE")}))',
  ].join('\n'),
  'list.py': 'import json; print(json.dumps([1, 2, 3]))',
  'number.py': 'print(42)',
  'string.py': 'import json; print(json.dumps("done"))',
  'text.sh': 'echo hello',
  'empty.py': 'pass',
  'silent.py': 'print("[SILENT]")',
  'silent-object.py': 'import json; print(json.dumps({"[SILENT]": True}))',
  'hermes-ignore.py': 'import json; print(json.dumps({"__hermes_ignore__": True}))',
  'exit.py': `import sys; print("bad input, key ${LEAKED} and ghp_${'a'.repeat(36)}"); sys.exit(7)`,
  'slow.py': 'import time; time.sleep(30)',
  'args.py': 'import json, sys; print(json.dumps({"argv": sys.argv[1:]}))',
};

let gateway: RecordingGateway;

function route(script: unknown, extra: Record<string, unknown> = {}) {
  return { secret: 'INSECURE_NO_AUTH', prompt: '{_gateway.raw}', script, ...extra };
}

beforeAll(async () => {
  const home = makeHome();
  fs.mkdirSync(path.join(home, 'scripts'));
  for (const [name, body] of Object.entries(SCRIPTS)) {
    fs.writeFileSync(path.join(home, 'scripts', name), `${body}\n`, { mode: 0o755 });
  }
  fs.writeFileSync(path.join(home, 'scripts', 'exec'), '#!/bin/sh\necho "{\\"exec\\": true}"\n', {
    mode: 0o755,
  });
  gateway = await startRecordingGateway(
    {
      routes: {
        record: route('record.py'),
        list: route('list.py'),
        number: route('number.py'),
        string: route('string.py'),
        text: route('text.sh'),
        empty: route('empty.py'),
        silent: route('silent.py'),
        'silent-object': route('silent-object.py'),
        'hermes-ignore': route('hermes-ignore.py'),
        exit: route('exit.py', { max_attempts: 1, secret: [LEAKED, 'INSECURE_NO_AUTH'] }),
        'exit-retried': route('exit.py', { max_attempts: 2 }),
        slow: route('slow.py', { max_attempts: 1, script_timeout_seconds: 1 }),
        argv: route(['args.py', '--flag', 'two words']),
        exec: route('exec'),
      },
    },
    { home },
  );
});

afterAll(async () => {
  await gateway.stop();
  cleanupHomes();
});

/** Posts `PAYLOAD` to a route and waits for its journal row to finish. */
async function deliver(routeName: string, event = 'alert.fired') {
  const deliveryId = newDeliveryId();
  const sent = await post(`${gateway.url}/webhooks/${routeName}`, JSON.stringify(PAYLOAD), {
    'Content-Type': 'application/json',
    'X-GitHub-Event': event,
    'X-GitHub-Delivery': deliveryId,
  });
  expect(sent.status).toBe(202);
  return { deliveryId, row: await finishedRow(gateway.home, deliveryId) };
}

/** The payload the agent was given (the template is `{_gateway.raw}`). */
async function payloadSeen(deliveryId: string): Promise<Record<string, unknown>> {
  const record = await gateway.agentRun(deliveryId);
  return JSON.parse(record.prompt) as Record<string, unknown>;
}

describe('what a route script gets', { timeout: 180_000 }, () => {
  it('gets the payload on stdin and the event, delivery id and route in its environment', async () => {
    const { deliveryId, row } = await deliver('record', 'export.completed');
    expect(row.status).toBe('delivered');
    expect(await payloadSeen(deliveryId)).toEqual({
      seen: PAYLOAD,
      event: 'export.completed',
      delivery: deliveryId,
      route: 'record',
    });
  });

  it('runs an argv list with its arguments, without a shell', async () => {
    const { deliveryId } = await deliver('argv');
    expect(await payloadSeen(deliveryId)).toEqual({ argv: ['--flag', 'two words'] });
  });

  it('runs a file without a known extension as an executable', async () => {
    const { deliveryId } = await deliver('exec');
    expect(await payloadSeen(deliveryId)).toEqual({ exec: true });
  });
});

describe('what a route script may answer', { timeout: 180_000 }, () => {
  it('a JSON object replaces the payload', async () => {
    const { deliveryId } = await deliver('record');
    expect(await payloadSeen(deliveryId)).toHaveProperty('seen', PAYLOAD);
  });

  it.each([
    ['list', '[1, 2, 3]'],
    ['number', '42'],
    ['string', '"done"'],
    ['text', 'hello'],
  ])(
    'output that is not a JSON object (%s) keeps the delivery, as script_output',
    async (name, output) => {
      const { deliveryId, row } = await deliver(name);
      expect(row.status).toBe('delivered');
      expect(await payloadSeen(deliveryId)).toEqual({ ...PAYLOAD, script_output: output });
    },
  );

  it.each(['empty', 'silent', 'silent-object', 'hermes-ignore'])(
    '%s output ends the delivery as skipped, reason script, with no run',
    async (name) => {
      const { deliveryId, row } = await deliver(name);
      expect(row.status).toBe('skipped');
      expect(row.lastError).toBe('script');
      expect(row.answer).toBeNull();
      expect(gateway.agentRuns().some((r) => r.deliveryId === deliveryId)).toBe(false);
    },
  );
});

describe('when a route script fails', { timeout: 180_000 }, () => {
  it('a non-zero exit fails the attempt with the output start, redacted, in the journal', async () => {
    const { deliveryId, row } = await deliver('exit');
    expect(row.status).toBe('failed');
    expect(row.lastError).toContain('route script "exit.py" exited with code 7: bad input');
    expect(row.lastError).not.toContain(LEAKED);
    expect(row.lastError).not.toContain('ghp_aaaa');
    expect(row.lastError).toContain('****');
    expect(gateway.agentRuns().some((r) => r.deliveryId === deliveryId)).toBe(false);
  });

  it('is retried like any failed attempt', async () => {
    const { row } = await deliver('exit-retried');
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(2);
  });

  it('a script past script_timeout_s fails the attempt', async () => {
    const { row } = await deliver('slow');
    expect(row.status).toBe('failed');
    expect(row.lastError).toContain('route script "slow.py" timed out after 1 s');
  });
});

describe('scripts refused at start', { timeout: 180_000 }, () => {
  it('a script outside <home>/scripts/, or missing, stops the gateway with its key path', async () => {
    const home = makeHome();
    fs.mkdirSync(path.join(home, 'scripts'));
    fs.writeFileSync(path.join(home, 'outside.py'), 'print("no")\n');
    webhookHome(
      {
        routes: {
          outside: route('../outside.py'),
          absolute: route(path.join(home, 'outside.py')),
          missing: route(['nope.py', '--x']),
        },
      },
      home,
    );
    const result = await runCli(['config', 'validate', '--home', home], { timeoutMs: 90_000 });
    expect(result.code).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain('platforms.webhook.extra.routes.outside.script');
    expect(output).toContain('platforms.webhook.extra.routes.absolute.script');
    expect(output).toContain('is outside');
    expect(output).toContain('platforms.webhook.extra.routes.missing.script.0');
    expect(output).toContain('does not exist');
  });
});
