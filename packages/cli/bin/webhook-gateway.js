#!/usr/bin/env node
// The committed entry npm links while installing, before `prepare` builds dist/ (a link to a
// file that does not exist yet is never made). It only starts the built CLI.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('webhook-gateway is not built yet: run npm run build\n');
  process.exit(1);
}
await import(entry.href);
