/**
 * What each public package's tarball holds, unpacked with `tar` as npm would: the metadata a
 * first publish needs, a LICENSE and README, source maps that carry their TypeScript, and
 * nothing that points at files a user does not get.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repoRoot } from '../support/gateway.js';
import { packPublicPackages, type PackedPackage } from '../support/packs.js';

const run = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-tarballs-'));
let packed: PackedPackage[] = [];

/** The published package.json fields this test checks. */
const publishedManifestSchema = z.object({
  license: z.string(),
  repository: z.object({ type: z.string(), url: z.string(), directory: z.string() }),
  homepage: z.string(),
  bugs: z.object({ url: z.string() }),
  publishConfig: z.object({ access: z.string() }).optional(),
});

const sourceMapSchema = z.object({
  sources: z.array(z.string()),
  sourcesContent: z.array(z.string().nullable()).optional(),
});

/** The folder a package's tarball was unpacked into (its `package/` folder). */
function unpacked(pkg: PackedPackage): string {
  return path.join(scratch, 'unpacked', pkg.name.replace('/', '__'), 'package');
}

beforeAll(async () => {
  packed = await packPublicPackages(path.join(scratch, 'packs'));
  for (const pkg of packed) {
    const into = path.dirname(unpacked(pkg));
    fs.mkdirSync(into, { recursive: true });
    await run('tar', ['-xzf', pkg.tarball, '-C', into]);
  }
}, 120_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the public packages as npm packs them', () => {
  it('are every workspace under packages/', () => {
    expect(packed.map((p) => p.dir)).toEqual(
      fs
        .readdirSync(path.join(repoRoot, 'packages'))
        .sort()
        .map((name) => path.join('packages', name)),
    );
  });

  it('each carry the MIT LICENSE of the repository and a README of their own', () => {
    const license = fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} webhook-gateway contributors\n/);
    for (const pkg of packed) {
      expect(fs.readFileSync(path.join(unpacked(pkg), 'LICENSE'), 'utf8'), pkg.name).toBe(license);
      const readme = fs.readFileSync(path.join(unpacked(pkg), 'README.md'), 'utf8');
      expect(readme.split('\n')[0], pkg.name).toBe(`# ${pkg.name}`);
      expect(readme, `${pkg.name}: an Install section`).toMatch(
        /npm install(?: -g)? @webhook-gateway\//,
      );
      // On npm a relative link leads nowhere: docs are linked by absolute URL.
      expect(readme, `${pkg.name}: relative links`).not.toMatch(/\]\((?!https?:|#)[^)]*\)/);
    }
  });

  it('declare where they come from and that a first publish is public', () => {
    for (const pkg of packed) {
      const text = fs.readFileSync(path.join(unpacked(pkg), 'package.json'), 'utf8');
      const manifest = publishedManifestSchema.parse(JSON.parse(text));
      expect(manifest.license, pkg.name).toBe('MIT');
      expect(manifest.repository, pkg.name).toEqual({
        type: 'git',
        url: 'git+https://github.com/webhook-gateway/webhook-gateway.git',
        directory: pkg.dir,
      });
      expect(manifest.homepage, pkg.name).toBe(
        `https://github.com/webhook-gateway/webhook-gateway/tree/main/${pkg.dir}#readme`,
      );
      expect(manifest.bugs.url, pkg.name).toBe(
        'https://github.com/webhook-gateway/webhook-gateway/issues',
      );
      expect(manifest.publishConfig?.access, pkg.name).toBe('public');
    }
  });

  it('ship source maps that carry their TypeScript, and no declaration maps', () => {
    for (const pkg of packed) {
      const maps = pkg.files.filter((file) => file.endsWith('.map'));
      expect(maps.length, `${pkg.name} has source maps`).toBeGreaterThan(0);
      expect(
        maps.filter((file) => file.endsWith('.d.ts.map')),
        pkg.name,
      ).toEqual([]);
      for (const file of maps) {
        const text = fs.readFileSync(path.join(unpacked(pkg), file), 'utf8');
        const map = sourceMapSchema.parse(JSON.parse(text));
        expect(map.sourcesContent?.length, `${pkg.name} ${file}`).toBe(map.sources.length);
        expect(map.sourcesContent, `${pkg.name} ${file}`).not.toContain(null);
      }
    }
  });

  it('ship no tests and no test-only helpers', () => {
    for (const pkg of packed) {
      const testFiles = pkg.files.filter((file) => /\.test\.|\/test-support\//.test(file));
      expect(testFiles, pkg.name).toEqual([]);
    }
  });
});
