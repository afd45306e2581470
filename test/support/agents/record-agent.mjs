#!/usr/bin/env node
// A `command` agent for tests: appends what it got (prompt, env) as a JSON line to argv[2],
// then answers. ANSWER_MODE in argv[3]: "echo" (default), "empty", "skip", "fail", "sleep:<ms>".
import fs from 'node:fs';

const [outFile, mode = 'echo'] = process.argv.slice(2);
let prompt = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) prompt += chunk;
const record = {
  prompt,
  route: process.env.WEBHOOK_ROUTE,
  event: process.env.WEBHOOK_EVENT,
  deliveryId: process.env.WEBHOOK_DELIVERY_ID,
  at: Date.now(),
};
if (mode.startsWith('sleep:'))
  await new Promise((resolve) => setTimeout(resolve, Number(mode.slice(6))));
fs.appendFileSync(outFile, `${JSON.stringify(record)}\n`);
if (mode === 'fail') {
  process.stderr.write('agent exploded\n');
  process.exit(3);
}
if (mode === 'empty') process.exit(0);
process.stdout.write(mode === 'skip' ? 'SKIP' : `answer for ${record.deliveryId}`);
