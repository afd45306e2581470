/**
 * Packs every public package of this repository with `npm pack`, as `npm publish` would, so
 * tests can install the tarballs the way a user installs from the registry.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './gateway.js';

const run = promisify(execFile);

/** A packed package: its name and the tarball's absolute path. */
export interface PackedPackage {
  name: string;
  tarball: string;
}

/** The folders of packages/ whose package.json is not `private`. */
function publicPackageDirs(): string[] {
  const root = path.join(repoRoot, 'packages');
  return fs
    .readdirSync(root)
    .map((entry) => path.join(root, entry))
    .filter((dir) => {
      const file = path.join(dir, 'package.json');
      if (!fs.existsSync(file)) return false;
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { private?: boolean };
      return manifest.private !== true;
    });
}

/** Packs each public package (built beforehand) into `destination`. */
export async function packPackages(destination: string): Promise<PackedPackage[]> {
  fs.mkdirSync(destination, { recursive: true });
  const dirs = publicPackageDirs();
  const { stdout } = await run(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      destination,
      ...dirs.map((dir) => `./${path.relative(repoRoot, dir)}`),
    ],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  return packed.map((entry) => ({
    name: entry.name,
    tarball: path.join(destination, entry.filename),
  }));
}
