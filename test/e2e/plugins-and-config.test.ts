/** Plugins listed in config, resolved from the config file's directory, and `--config FILE`. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  cleanupHomes,
  makeHome,
  repoRoot,
  runCli,
  startGateway,
  waitFor,
  withLoopbackDefaults,
  writeConfig,
} from '../support/gateway.js';
import { sendForge } from '../support/requests.js';

const SECRET = 'plugin-secret-5555555555';
const coreUrl = new URL(`file://${path.join(repoRoot, 'packages/core/dist/index.js')}`).href;

afterAll(() => cleanupHomes());

/** A local plugin adding a `file` target that appends answers to a file. */
function writeFileTargetPlugin(dir: string, outFile: string): void {
  fs.writeFileSync(
    path.join(dir, 'file-target.mjs'),
    `import fs from 'node:fs';
import { definePlugin } from '${coreUrl}';
export default definePlugin({
  name: 'file-target',
  setup({ hooks }, options) {
    hooks.deliver.for('file').tapPromise('file-target', async ({ answer, delivery }) => {
      fs.appendFileSync(options?.path ?? ${JSON.stringify(outFile)}, delivery.deliveryId + ' ' + answer.length + '\\n');
    });
  },
});
`,
  );
}

describe('plugins', () => {
  it('loads a local plugin relative to the config file and delivers through its target', async () => {
    const home = makeHome();
    const outFile = path.join(home, 'delivered.txt');
    writeFileTargetPlugin(home, outFile);
    const gateway = await startGateway({
      home,
      config: {
        plugins: [{ name: './file-target.mjs', options: { path: outFile } }],
        platforms: {
          webhook: { extra: { secret: SECRET, routes: { files: { deliver: 'file' } } } },
        },
      },
    });
    try {
      const sent = await sendForge(gateway.url, 'files', {
        body: '{"a":1}',
        secret: SECRET,
        event: 'push',
        deliveryId: 'plug-1',
      });
      expect(sent.status).toBe(202);
      const line = await waitFor(
        () => (fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : undefined),
        'the plugin target',
      );
      expect(line).toMatch(/^plug-1 \d+\n$/);
    } finally {
      await gateway.stop();
    }
  });

  it('says a package plugin is not installed, and where it looked', async () => {
    const home = makeHome();
    writeConfig(home, {
      plugins: ['webhook-gateway-plugin-that-does-not-exist'],
      platforms: { webhook: { extra: { secret: SECRET } } },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('webhook-gateway-plugin-that-does-not-exist');
    expect(result.stderr).toContain(
      `plugin webhook-gateway-plugin-that-does-not-exist: is not installed (looked up from ${home} (the config file's directory), then from ${path.join(repoRoot, 'packages/cli')} (beside the CLI, in the project ${repoRoot})); install it with: cd ${repoRoot} && npm install webhook-gateway-plugin-that-does-not-exist`,
    );
  });

  it('says a plugin that throws while loading failed to load, with its error', async () => {
    const home = makeHome();
    fs.writeFileSync(path.join(home, 'broken.mjs'), "throw new Error('kaboom at import');\n");
    writeConfig(home, {
      plugins: ['./broken.mjs'],
      platforms: { webhook: { extra: { secret: SECRET } } },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('failed to load');
    expect(result.stderr).toContain('kaboom at import');
  });

  it('says a plugin file whose import cannot resolve failed to load, with Node’s cause', async () => {
    const home = makeHome();
    fs.mkdirSync(path.join(home, 'plugins'));
    fs.writeFileSync(
      path.join(home, 'plugins', 'local.mjs'),
      "import { definePlugin } from '@webhook-gateway/core';\nimport '@acme/not-installed-helper';\nexport default definePlugin({ name: 'local', setup() {} });\n",
    );
    writeConfig(home, {
      plugins: ['./plugins/local.mjs'],
      platforms: { webhook: { extra: { secret: SECRET } } },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "plugin ./plugins/local.mjs: failed to load: Cannot find package '@acme/not-installed-helper'",
    );
    expect(result.stderr).not.toContain('not installed:');
  });

  it('lets a local plugin file import core from a home that has no node_modules', async () => {
    const home = makeHome();
    fs.writeFileSync(
      path.join(home, 'local.mjs'),
      "import { definePlugin } from '@webhook-gateway/core';\nexport default definePlugin({ name: 'local', setup() {} });\n",
    );
    writeConfig(home, {
      plugins: ['./local.mjs'],
      platforms: { webhook: { extra: { secret: SECRET } } },
    });
    const result = await runCli(['config', 'validate', '--home', home]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('says how to make a .js plugin that Node reads as CommonJS an ES module', async () => {
    const home = makeHome();
    fs.writeFileSync(path.join(home, 'package.json'), '{ "type": "commonjs" }\n');
    fs.writeFileSync(path.join(home, 'local.js'), 'export default {};\n');
    writeConfig(home, {
      plugins: ['./local.js'],
      platforms: { webhook: { extra: { secret: SECRET } } },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'plugin ./local.js: failed to load: Unexpected token \'export\' (a plugin is an ES module: name the file .mjs, or set "type": "module" in its package.json)',
    );
  });

  it('finds a package plugin installed beside the CLI when the config’s directory has none', async () => {
    // This repository's node_modules is where the CLI is installed: a package put there is
    // "beside the CLI", and the home (a temporary folder) has no node_modules of its own.
    const packageDir = path.join(repoRoot, 'node_modules', '@e2e-beside-cli', 'file-target');
    fs.mkdirSync(packageDir, { recursive: true });
    try {
      const home = makeHome();
      const outFile = path.join(home, 'delivered.txt');
      writeFileTargetPlugin(packageDir, outFile);
      fs.writeFileSync(
        path.join(packageDir, 'package.json'),
        JSON.stringify({
          name: '@e2e-beside-cli/file-target',
          type: 'module',
          exports: './file-target.mjs',
        }),
      );
      const gateway = await startGateway({
        home,
        config: {
          plugins: ['@e2e-beside-cli/file-target'],
          platforms: {
            webhook: { extra: { secret: SECRET, routes: { files: { deliver: 'file' } } } },
          },
        },
      });
      try {
        const sent = await sendForge(gateway.url, 'files', {
          body: '{"a":1}',
          secret: SECRET,
          event: 'push',
          deliveryId: 'beside-1',
        });
        expect(sent.status).toBe(202);
        const line = await waitFor(
          () => (fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : undefined),
          'the plugin target',
        );
        expect(line).toMatch(/^beside-1 \d+\n$/);
      } finally {
        await gateway.stop();
      }
    } finally {
      fs.rmSync(path.dirname(packageDir), { recursive: true, force: true });
    }
  });

  it('runs a plugin against the CLI’s copy of core even when it brought its own', async () => {
    // As `npm install -g` lays out a plugin whose peer dependency it installed a second time.
    const home = makeHome();
    const pluginDir = path.join(home, 'node_modules', '@acme', 'pinned');
    const ownCore = path.join(pluginDir, 'node_modules', '@webhook-gateway', 'core');
    fs.mkdirSync(ownCore, { recursive: true });
    fs.writeFileSync(
      path.join(ownCore, 'package.json'),
      JSON.stringify({ name: '@webhook-gateway/core', type: 'module', exports: './index.js' }),
    );
    fs.writeFileSync(
      path.join(ownCore, 'index.js'),
      "throw new Error('a second copy of core was loaded');\n",
    );
    fs.writeFileSync(
      path.join(pluginDir, 'package.json'),
      JSON.stringify({ name: '@acme/pinned', type: 'module', exports: './index.js' }),
    );
    fs.writeFileSync(
      path.join(pluginDir, 'index.js'),
      "import { definePlugin } from '@webhook-gateway/core';\nexport default definePlugin({ name: '@acme/pinned', setup() {} });\n",
    );
    writeConfig(home, {
      plugins: ['@acme/pinned'],
      platforms: { webhook: { extra: { secret: SECRET } } },
    });
    const result = await runCli(['config', 'validate', '--home', home]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('refuses a route whose target no plugin provides, naming the route', async () => {
    const home = makeHome();
    writeConfig(home, {
      platforms: {
        webhook: { extra: { secret: SECRET, routes: { paged: { deliver: 'pager' } } } },
      },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('route "paged"');
    expect(result.stderr).toContain('pager');
    expect(result.stderr).toContain('loaded plugins: @webhook-gateway/');
  });

  it('refuses at start a runner that no plugin provides, naming its key (not at the first attempt)', async () => {
    const home = makeHome();
    writeConfig(home, {
      agent: { runner: 'claude-code' },
      platforms: { webhook: { extra: { secret: SECRET, routes: { reviews: {} } } } },
    });
    const result = await runCli(['gateway', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'invalid config: agent.runner: no agent runner named "claude-code" is installed (loaded plugins:',
    );
    expect(result.stderr).toContain('@webhook-gateway/agent');
    const validate = await runCli(['config', 'validate', '--home', home]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('agent.runner: no agent runner named "claude-code"');
  });
});

describe('--config FILE', () => {
  it('reads the given file instead of <home>/config.yaml', async () => {
    const home = makeHome();
    writeConfig(home, {
      platforms: { webhook: { extra: { secret: SECRET, routes: { from_home: {} } } } },
    });
    const elsewhere = path.join(makeHome(), 'other.yaml');
    fs.writeFileSync(
      elsewhere,
      stringify(
        withLoopbackDefaults({
          platforms: { webhook: { extra: { secret: SECRET, routes: { from_flag: {} } } } },
        }),
      ),
    );
    const gateway = await startGateway({ home, args: ['--config', elsewhere] });
    try {
      expect(gateway.stdout()).toContain('routes: from_flag');
    } finally {
      await gateway.stop();
    }
  });

  it('fails with the path when the given file does not exist', async () => {
    const missing = path.join(makeHome(), 'missing.yaml');
    const result = await runCli(['gateway', '--config', missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(missing);
  });
});
