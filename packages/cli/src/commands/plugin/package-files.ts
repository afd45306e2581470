/** The files of a new plugin package: package.json, the plugin, its test, a README. Pure text. */
import { pluginSources, type PluginKind, type PluginNames } from './sources.js';

/** The versions a new plugin is written against: the running CLI's own. */
export interface PluginVersions {
  /** The range of @webhook-gateway/core the CLI depends on (`^0.1.0`). */
  core: string;
  zod: string;
  vitest: string;
}

/** `@acme/webhook-gateway-deliver-pager` → `pager`: the package name less its scope and prefixes. */
export function pluginKeyOf(packageName: string): string {
  const base = packageName.split('/').pop() ?? packageName;
  const key = base
    .replace(/^webhook-gateway-/, '')
    .replace(/^(deliver|target|auth|scheme|runner|store)-/, '')
    .replace(/[^a-z0-9_-]/g, '-');
  return /^[a-z]/.test(key) ? key : `p${key}`;
}

function pluginNames(packageName: string): PluginNames {
  const key = pluginKeyOf(packageName);
  return { packageName, key, slice: key.replace(/-/g, '_') };
}

const WHAT: Record<PluginKind, (n: PluginNames) => string> = {
  target: (n) =>
    `A [webhook-gateway](https://www.npmjs.com/package/@webhook-gateway/cli) delivery target, \`${n.key}\`.`,
  scheme: (n) =>
    `A [webhook-gateway](https://www.npmjs.com/package/@webhook-gateway/cli) auth scheme, \`${n.key}\`.`,
  runner: (n) =>
    `A [webhook-gateway](https://www.npmjs.com/package/@webhook-gateway/cli) agent runner, \`${n.key}\`.`,
  store: (n) =>
    `A [webhook-gateway](https://www.npmjs.com/package/@webhook-gateway/cli) store, \`store.kind: ${n.key}\`.`,
};

const CONFIG: Record<PluginKind, (n: PluginNames) => string> = {
  target: (n) => `plugins:
  - '${n.packageName}'
platforms:
  ${n.slice}:
    url: https://example.invalid/hook   # where each answer is posted
    timeout_s: 10
  webhook:
    extra:
      routes:
        review:
          deliver: ${n.key}`,
  scheme: (n) => `plugins:
  - '${n.packageName}'
platforms:
  ${n.slice}:
    header: x-${n.key}-token   # the header that carries the route's secret`,
  runner: (n) => `plugins:
  - name: '${n.packageName}'
    options: { prefix: '' }
agent:
  runner: ${n.key}`,
  store: (n) => `plugins:
  - '${n.packageName}'
store:
  kind: ${n.key}`,
};

function packageJson(kind: PluginKind, n: PluginNames, versions: PluginVersions): string {
  const manifest = {
    name: n.packageName,
    version: '0.1.0',
    description: WHAT[kind](n).replace(/\[([^\]]+)\]\([^)]+\)/, '$1'),
    keywords: ['webhook-gateway', 'webhook-gateway-plugin'],
    license: 'MIT',
    type: 'module',
    exports: { '.': './src/index.js' },
    files: ['src', '!src/**/*.test.js'],
    engines: { node: '^20.19.0 || >=22.12.0' },
    scripts: { test: 'vitest run' },
    ...(kind === 'store' ? {} : { dependencies: { zod: versions.zod } }),
    peerDependencies: { '@webhook-gateway/core': versions.core },
    devDependencies: { '@webhook-gateway/core': versions.core, vitest: versions.vitest },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function readme(kind: PluginKind, n: PluginNames): string {
  return `# ${n.packageName}

${WHAT[kind](n)}

## Install

Beside the \`webhook-gateway\` CLI, so it shares the CLI's copy of \`@webhook-gateway/core\`:

\`\`\`sh
npm install -g ${n.packageName}     # the CLI was installed with npm install -g
npm install ${n.packageName}        # the CLI is a dependency of your project
\`\`\`

## Config

\`\`\`yaml
${CONFIG[kind](n)}
\`\`\`

\`webhook-gateway config validate\` checks it; \`webhook-gateway config schema\` lists its keys.

## Develop

\`\`\`sh
npm install
npm test
\`\`\`

The test starts a whole gateway with the plugin (\`startGateway\` from
\`@webhook-gateway/core/testing\`).
`;
}

/** Every file of the package, by path relative to its folder. */
export function pluginPackageFiles(
  kind: PluginKind,
  packageName: string,
  versions: PluginVersions,
): Record<string, string> {
  const names = pluginNames(packageName);
  const sources = pluginSources(kind, names);
  return {
    'package.json': packageJson(kind, names, versions),
    'src/index.js': sources.plugin,
    'src/index.test.js': sources.test,
    'README.md': readme(kind, names),
    '.gitignore': 'node_modules/\n',
  };
}
