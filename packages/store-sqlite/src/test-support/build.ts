/** Builds the package when its dist is missing or older than its sources (for child processes). */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

/** The absolute path of the built entry point. */
export const distEntry = path.join(packageDir, 'dist', 'index.js');

function newestSourceMtime(): number {
  const sourceDir = path.join(packageDir, 'src');
  return Math.max(
    ...readdirSync(sourceDir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => statSync(path.join(sourceDir, name)).mtimeMs),
  );
}

/** Makes sure `distEntry` reflects the current sources. */
export function ensureBuilt(): void {
  if (existsSync(distEntry) && statSync(distEntry).mtimeMs >= newestSourceMtime()) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(packageDir, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
}
