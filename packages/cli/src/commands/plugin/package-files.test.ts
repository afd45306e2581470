import { describe, expect, it } from 'vitest';
import { pluginKeyOf, pluginPackageFiles } from './package-files.js';

const versions = { core: '^0.1.0', zod: '^4.6.7', vitest: '^4.1.12' };

describe('a new plugin package', () => {
  it('names what it provides after the package, less its scope and prefixes', () => {
    expect(pluginKeyOf('@acme/webhook-gateway-deliver-pager')).toBe('pager');
    expect(pluginKeyOf('webhook-gateway-auth-hub')).toBe('hub');
    expect(pluginKeyOf('my-runner')).toBe('my-runner');
  });

  it('is an ES module with exports and core as a peer dependency', () => {
    const manifest = JSON.parse(
      pluginPackageFiles('target', '@acme/webhook-gateway-deliver-pager', versions)[
        'package.json'
      ] ?? '',
    ) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      type: 'module',
      exports: { '.': './src/index.js' },
      peerDependencies: { '@webhook-gateway/core': '^0.1.0' },
      dependencies: { zod: '^4.6.7' },
      devDependencies: { '@webhook-gateway/core': '^0.1.0', vitest: '^4.1.12' },
    });
  });

  it('has the plugin, its test against core/testing and a README with its config slice', () => {
    const files = pluginPackageFiles('target', '@acme/webhook-gateway-deliver-pager', versions);
    expect(Object.keys(files).sort()).toEqual([
      '.gitignore',
      'README.md',
      'package.json',
      'src/index.js',
      'src/index.test.js',
    ]);
    expect(files['src/index.js']).toContain("provides: { targets: ['pager'] }");
    expect(files['src/index.test.js']).toContain("from '@webhook-gateway/core/testing'");
    expect(files['README.md']).toContain('platforms:\n  pager:\n    url:');
  });
});
