/** Temporary folders laid out as users install plugins: packages in node_modules, local files. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The source of a module whose default export is what `definePlugin` makes, without importing
 * core (a temporary folder has no core to import): the brand `isPlugin` checks, a name, a setup.
 */
export function pluginModuleSource(name: string): string {
  return `export default { [Symbol.for('webhook-gateway.plugin')]: true, name: ${JSON.stringify(name)}, setup() {} };\n`;
}

const made: string[] = [];

/** A new empty folder under the system's temporary directory; removed by `removeTempDirs`. */
export function makeTempDir(label: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `wg-${label}-`)));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes `<dir>/node_modules/<name>` as an ESM package whose main module is a plugin. */
export function installPackage(
  dir: string,
  name: string,
  source = pluginModuleSource(name),
): string {
  const packageDir = path.join(dir, 'node_modules', ...name.split('/'));
  fs.mkdirSync(packageDir, { recursive: true });
  fs.writeFileSync(
    path.join(packageDir, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', type: 'module', exports: './index.js' }),
  );
  fs.writeFileSync(path.join(packageDir, 'index.js'), source);
  return packageDir;
}

/** Writes a file relative to `dir`, making its folders. */
export function writeFile(dir: string, relative: string, content: string): string {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}
