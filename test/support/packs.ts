/**
 * The public packages as npm publishes them: `npm pack` of every non-private workspace under
 * packages/, for tests that install or inspect the tarballs the way a user gets them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { repoRoot } from './gateway.js';

const run = promisify(execFile);

/** The parts of a package.json these tests read. */
const manifestSchema = z.object({
  name: z.string(),
  version: z.string(),
  private: z.boolean().optional(),
  exports: z.record(z.string(), z.unknown()).optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  peerDependencies: z.record(z.string(), z.string()).optional(),
  peerDependenciesMeta: z.record(z.string(), z.object({ optional: z.boolean() })).optional(),
});
export type PackageManifest = z.infer<typeof manifestSchema>;

/** What `npm pack --json` says of each tarball. */
const packReportSchema = z.array(
  z.object({
    name: z.string(),
    filename: z.string(),
    size: z.number(),
    entryCount: z.number(),
    files: z.array(z.object({ path: z.string(), size: z.number() })),
  }),
);

export interface PackedPackage {
  name: string;
  /** The workspace folder, e.g. `packages/core`. */
  dir: string;
  manifest: PackageManifest;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** Paths inside the tarball, relative to its `package/` folder. */
  files: string[];
}

/** Every workspace under packages/ that is not private, with its manifest. */
function publicPackages(): { dir: string; manifest: PackageManifest }[] {
  const packagesDir = path.join(repoRoot, 'packages');
  return fs
    .readdirSync(packagesDir)
    .sort()
    .map((name) => {
      const dir = path.join('packages', name);
      const text = fs.readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8');
      return { dir, manifest: manifestSchema.parse(JSON.parse(text)) };
    })
    .filter(({ manifest }) => manifest.private !== true);
}

/**
 * Packs every public package into `destination` with one `npm pack` (the build must be done:
 * tarballs take `dist/` as it is).
 */
export async function packPublicPackages(destination: string): Promise<PackedPackage[]> {
  fs.mkdirSync(destination, { recursive: true });
  const packages = publicPackages();
  const workspaces = packages.flatMap(({ manifest }) => ['-w', manifest.name]);
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', destination, ...workspaces],
    { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
  );
  const reports = packReportSchema.parse(JSON.parse(stdout));
  return packages.map(({ dir, manifest }) => {
    const report = reports.find((r) => r.name === manifest.name);
    if (!report) throw new Error(`npm pack made no tarball for ${manifest.name}`);
    return {
      name: manifest.name,
      dir,
      manifest,
      tarball: path.join(destination, report.filename),
      files: report.files.map((f) => f.path),
    };
  });
}

/** The entry points a package's `exports` offers, as import specifiers (`@x/core/testing`). */
export function entryPoints(manifest: PackageManifest): string[] {
  return Object.keys(manifest.exports ?? {}).map((subpath) =>
    subpath === '.' ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, '')}`,
  );
}
