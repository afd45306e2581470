#!/usr/bin/env node
/**
 * `npm run check:packages`: the public packages as npm would publish them (run after the build).
 * Packs each once, then
 *   - publint (strict) on each tarball: package.json fields, exports, files;
 *   - @arethetypeswrong/cli on each tarball with importable entries: types resolve per entry;
 *   - knip on the repository: no unused file, export, exported type or duplicate export, no unused or
 *     undeclared dependency or binary.
 * Runs every check, prints what failed, and exits 1 if anything did.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(repoRoot, 'node_modules/.bin', name);

/** Runs a command quietly; true when it exits 0, else its output is printed. */
function passes(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status === 0) return true;
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return false;
}

const packages = fs
  .readdirSync(path.join(repoRoot, 'packages'))
  .sort()
  .map((dir) => JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages', dir, 'package.json'))))
  .filter((manifest) => manifest.private !== true);

const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-check-packages-'));
const failed = [];
try {
  const packed = spawnSync(
    'npm',
    ['pack', '--json', '--pack-destination', packDir, ...packages.flatMap((p) => ['-w', p.name])],
    { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (packed.status !== 0) throw new Error('npm pack failed');
  const tarballs = new Map(JSON.parse(packed.stdout).map((r) => [r.name, r.filename]));

  for (const manifest of packages) {
    const tarball = path.join(packDir, tarballs.get(manifest.name));
    const checks = [];
    if (passes(bin('publint'), ['run', tarball, '--strict'])) checks.push('publint');
    else failed.push(`publint ${manifest.name}`);
    // The CLI is a command only: nothing to import, so no types to check.
    if (manifest.exports !== undefined) {
      // ESM only ("type": "module", no "require" condition), as the engines allow: CommonJS
      // callers use import() or Node's require(esm). esm-only leaves out node10 and
      // node16-from-CJS, which would only report that.
      const attwArgs = [tarball, '--profile', 'esm-only', '--format', 'table-flipped'];
      if (passes(bin('attw'), attwArgs)) checks.push('attw');
      else failed.push(`attw ${manifest.name}`);
    }
    console.log(`${manifest.name}: ${checks.join(', ') || 'failed'}`);
  }
} finally {
  fs.rmSync(packDir, { recursive: true, force: true });
}

// tsconfig.build.json maps each package's dist/ entries back to src/.
const knipArgs = ['--tsConfig', 'tsconfig.build.json'];
knipArgs.push(
  '--include',
  'files,dependencies,unlisted,binaries,unresolved,exports,types,duplicates',
);
if (passes(bin('knip'), knipArgs)) console.log('repository: knip');
else failed.push('knip');

if (failed.length > 0) {
  console.error(`check:packages failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`check:packages: publint, attw and knip pass for ${packages.length} packages`);
