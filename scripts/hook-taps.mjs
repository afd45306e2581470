#!/usr/bin/env node
/**
 * The table of who taps which hook in docs/architecture.md, written from the code: every built-in
 * plugin is set up on a gateway's hooks, and each hook's `taps` are listed. Setup runs twice, with
 * a config that turns on every optional part and with the defaults, so a tap made only under some
 * config says so.
 *
 * Usage (after `npm run build`, it reads the built packages):
 *   node scripts/hook-taps.mjs --write        rewrites the table (`npm run docs:hook-taps`)
 *   node scripts/hook-taps.mjs [--doc FILE]   exits 1 when the doc's table differs
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createGateway,
  createLogger,
  loadConfig,
  MemoryStore,
} from '@webhook-gateway/core/runtime';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START = '<!-- hook-taps:start -->';
const END = '<!-- hook-taps:end -->';
/** The config under which the optional taps are made, and what the doc calls it. */
const FULL_CONFIG = `platforms:
  webhook:
    extra:
      admin: { host: 127.0.0.1, port: 0, token: "${'t'.repeat(32)}" }
`;
const FULL_CONFIG_WORDS = '`platforms.webhook.extra.admin`';

/** Every hook's taps on a gateway with the built-in plugins, under the config in `yaml`. */
async function tapsUnder(yaml) {
  const { loadPlugins } = await import(path.join(ROOT, 'packages/cli/dist/builtin-plugins.js'));
  const home = mkdtempSync(path.join(tmpdir(), 'hook-taps-'));
  try {
    writeFileSync(path.join(home, 'config.yaml'), yaml);
    const { config, plugins } = await loadConfig({ home, loadPlugins, env: {} });
    const logger = createLogger({ home, level: 'silent', tty: false });
    await logger.ready;
    const store = new MemoryStore();
    const gateway = await createGateway({ config, home, store, log: logger.log, plugins });
    const rows = [];
    for (const [hookName, hook] of Object.entries(gateway.hooks)) {
      // A HookMap keeps its keys in `_map`, in the order they were first tapped (for schemes,
      // the order a route without `schemes` asks them); tapable has no public list of them.
      const keyed = hook._map instanceof Map ? [...hook._map.entries()] : [[null, hook]];
      for (const [key, keyedHook] of keyed) {
        const named = keyedHook.taps.map((tap) =>
          tap.stage ? `\`${tap.name}\` (stage ${tap.stage})` : `\`${tap.name}\``,
        );
        // A plugin that taps a hook for several jobs in a row is named once.
        const taps = named.filter((name, index) => name !== named[index - 1]);
        if (taps.length > 0) rows.push({ hook: hookName, key, taps });
      }
    }
    await store.close();
    logger.flush();
    return rows;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The markdown table, taps in the order they run; a tap the defaults lack is marked. */
async function hookTapsTable() {
  const full = await tapsUnder(FULL_CONFIG);
  const defaults = await tapsUnder('{}\n');
  const inDefaults = new Set(
    defaults.flatMap((row) => row.taps.map((tap) => `${row.hook}|${row.key}|${tap}`)),
  );
  const lines = ['| hook | key | taps, in the order they run |', '|---|---|---|'];
  for (const row of full) {
    const taps = row.taps.map((tap) =>
      inDefaults.has(`${row.hook}|${row.key}|${tap}`)
        ? tap
        : `${tap} (only with ${FULL_CONFIG_WORDS})`,
    );
    lines.push(
      `| \`${row.hook}\` | ${row.key === null ? '' : `\`${row.key}\``} | ${taps.join(', ')} |`,
    );
  }
  return lines.join('\n');
}

/** The doc's text with the marked section holding `table`. */
function withTable(doc, table) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`the doc has no ${START} … ${END} section`);
  return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`;
}

async function main() {
  const args = process.argv.slice(2);
  const docFlag = args.indexOf('--doc');
  const doc =
    docFlag === -1
      ? path.join(ROOT, 'docs/architecture.md')
      : path.resolve(args[docFlag + 1] ?? '');
  const text = readFileSync(doc, 'utf8');
  const expected = withTable(text, await hookTapsTable());
  if (args.includes('--write')) {
    if (expected !== text) writeFileSync(doc, expected);
    return 0;
  }
  if (expected === text) return 0;
  console.error(
    `${path.relative(process.cwd(), doc)}: the table of hook taps differs from what the built plugins tap; ` +
      'run `npm run docs:hook-taps` to rewrite it',
  );
  return 1;
}

// The log file's periodic flush keeps the event loop alive: exit once done.
process.exit(await main());
