// What both screenshot scripts share: start this checkout's built CLI on a home and wait until
// both its webhook listener and its admin listener (the dashboard) answer; send it signed deliveries.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts `webhook-gateway gateway --home <home>`; resolves with its URLs once both listen. */
export async function startBuiltGateway(home) {
  const child = spawn(
    process.execPath,
    [path.join(root, 'packages/cli/dist/bin.js'), 'gateway', '--home', home],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /Listening on (\S+):(\d+)/.exec(out);
      if (match) resolve(`http://${match[1]}:${match[2]}`);
    });
  });
  // The admin port is only in the log (the listening line names the webhook listener).
  const adminUrl = await new Promise((resolve) => {
    const timer = setInterval(() => {
      const log = path.join(home, 'logs', 'gateway.log');
      if (!fs.existsSync(log)) return;
      for (const line of fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
        const entry = JSON.parse(line);
        if (entry.msg === 'admin listening') {
          clearInterval(timer);
          resolve(`http://127.0.0.1:${entry.port}`);
        }
      }
    }, 100);
  });
  return { child, url, adminUrl };
}

/**
 * POSTs `body` to a route as the forge sends it, signed with `secret`.
 * @param {string} url the webhook listener
 * @param {{ route: string, event: string, deliveryId: string, body: string, secret: string }} delivery
 */
export function postForgeDelivery(url, { route, event, deliveryId, body, secret }) {
  return fetch(`${url}/webhooks/${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forge-event': event,
      'x-forge-delivery': deliveryId,
      'x-forge-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
}
