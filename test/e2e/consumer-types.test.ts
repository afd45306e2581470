/**
 * A plugin author's project, outside this repository: the packed tarballs installed from npm's
 * point of view, type-checked with `skipLibCheck: false`. Every type a public `.d.ts` names must
 * come from that package's own dependencies (or a peer), never by accident through another's.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/gateway.js';
import { entryPoints, packPublicPackages, type PackedPackage } from '../support/packs.js';

const run = promisify(execFile);
/** `tsc` over core and every plugin's declarations: slow on a busy two-core machine. */
const TSC_TIMEOUT_MS = 300_000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-consumer-'));
const consumer = path.join(scratch, 'consumer');
let packed: PackedPackage[] = [];

/** The version of a package this repository has installed (the consumer gets the same). */
function installedVersion(name: string): string {
  const require = createRequire(path.join(repoRoot, 'package.json'));
  const manifest: unknown = require(`${name}/package.json`);
  const version = (manifest as { version?: unknown }).version;
  if (typeof version !== 'string') throw new Error(`${name} has no version`);
  return version;
}

const compilerOptions = {
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  target: 'ES2023',
  lib: ['ES2023'],
  types: ['node'],
  strict: true,
  // The point of the test: the packages' own .d.ts files are checked too.
  skipLibCheck: false,
  noEmit: true,
};

/** Runs the consumer's own `tsc`; resolves with what it printed and its exit code. */
async function typecheck(files: string[]): Promise<{ code: number; output: string }> {
  const tsconfig = { compilerOptions, files };
  fs.writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  const tsc = path.join(consumer, 'node_modules/typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', consumer, '--pretty', 'false'], { cwd: consumer }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
}

beforeAll(async () => {
  packed = await packPublicPackages(path.join(scratch, 'packs'));
  fs.mkdirSync(consumer);
  fs.writeFileSync(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // --ignore-scripts: types need no install script, and better-sqlite3's native build is not
  // what this test is about. --prefer-offline: everything else is in npm's cache after `npm ci`.
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--prefer-offline',
      ...packed.map((p) => p.tarball),
      `typescript@${installedVersion('typescript')}`,
      `@types/node@${installedVersion('@types/node')}`,
    ],
    { cwd: consumer, maxBuffer: 16 * 1024 * 1024 },
  );
}, 300_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('a consumer project with skipLibCheck: false', () => {
  it(
    'type-checks a plugin written against @webhook-gateway/core and tested with core/testing',
    async () => {
      fs.writeFileSync(
        path.join(consumer, 'pager.ts'),
        [
          "import { definePlugin, type DeliverRequest } from '@webhook-gateway/core';",
          "import { createLogger } from '@webhook-gateway/core/runtime';",
          "import { startGateway } from '@webhook-gateway/core/testing';",
          '',
          'export const plugin = definePlugin({',
          "  name: '@acme/webhook-gateway-deliver-pager',",
          "  provides: { targets: ['pager'] },",
          '  setup({ hooks }) {',
          "    hooks.deliver.for('pager').tapPromise('pager', async (request: DeliverRequest) => {",
          '      const body = `${request.delivery.route}: ${request.answer}`;',
          "      await fetch('http://127.0.0.1:9/page', { method: 'POST', body, signal: request.signal });",
          '    });',
          '  },',
          '});',
          'export const used = [startGateway, createLogger];',
          '',
        ].join('\n'),
      );
      const { code, output } = await typecheck(['pager.ts']);
      expect(output).toBe('');
      expect(code).toBe(0);
    },
    TSC_TIMEOUT_MS,
  );

  it(
    'type-checks every entry point of every public package',
    async () => {
      const files = packed.flatMap((p) =>
        entryPoints(p.manifest).map((specifier) => {
          const file = `import-${specifier.replace(/[@/]/g, '_')}.ts`;
          const text = `import * as entry from '${specifier}';\nexport const loaded = entry;\n`;
          fs.writeFileSync(path.join(consumer, file), text);
          return file;
        }),
      );
      expect(files.length).toBeGreaterThan(packed.length - 1);
      const { code, output } = await typecheck(files);
      expect(output).toBe('');
      expect(code).toBe(0);
    },
    TSC_TIMEOUT_MS,
  );

  it(
    'finds every module a public .d.ts imports among its own package’s dependencies',
    async () => {
      const files = packed.flatMap((p) =>
        entryPoints(p.manifest).map((specifier) => {
          const file = `list-${specifier.replace(/[@/]/g, '_')}.ts`;
          fs.writeFileSync(path.join(consumer, file), `export * from '${specifier}';\n`);
          return file;
        }),
      );
      fs.writeFileSync(
        path.join(consumer, 'tsconfig.json'),
        JSON.stringify({ compilerOptions, files }),
      );
      const parsed = ts.getParsedCommandLineOfConfigFile(
        path.join(consumer, 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
      );
      if (!parsed) throw new Error('the consumer tsconfig did not parse');
      const program = ts.createProgram(parsed.fileNames, parsed.options);

      const problems: string[] = [];
      const scope = path.join(consumer, 'node_modules/@webhook-gateway') + path.sep;
      for (const source of program.getSourceFiles()) {
        if (!source.fileName.startsWith(scope)) continue;
        const owner = packed.find((p) =>
          source.fileName.startsWith(path.join(consumer, 'node_modules', p.name) + path.sep),
        );
        if (!owner) continue;
        const declared = {
          ...owner.manifest.dependencies,
          ...owner.manifest.peerDependencies,
        };
        const info = ts.preProcessFile(source.text, true, true);
        for (const { fileName: specifier } of [
          ...info.importedFiles,
          ...info.typeReferenceDirectives,
        ]) {
          if (specifier.startsWith('.')) continue;
          const where = `${path.relative(consumer, source.fileName)} imports '${specifier}'`;
          if (specifier.startsWith('node:') || builtinModules.includes(specifier)) {
            if (!('@types/node' in declared)) problems.push(`${where}, but @types/node is no peer`);
            continue;
          }
          const parts = specifier.split('/');
          const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
          if (!(name in declared)) {
            problems.push(`${where}, which is not among ${owner.name}'s dependencies`);
            continue;
          }
          const resolved = ts.resolveModuleName(specifier, source.fileName, parsed.options, ts.sys)
            .resolvedModule?.resolvedFileName;
          const typesPackage = `@types/${name.replace(/^@/, '').replace('/', '__')}`;
          if (resolved?.includes(`/node_modules/${typesPackage}/`) && !(typesPackage in declared)) {
            problems.push(`${where}, whose types are ${typesPackage}: not a dependency`);
          }
        }
      }
      expect(problems).toEqual([]);
    },
    TSC_TIMEOUT_MS,
  );
});
