/**
 * Finds the file of a plugin named in config: a path relative to the config file, or a package
 * looked up from each place users install one, in order (as changesets does with
 * `import-meta-resolve`). A miss lists every place looked and the one command that installs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolve as resolveModule } from 'import-meta-resolve';
import { PluginError, PluginNotInstalledError, errorMessage } from './errors.js';

/** A directory packages are looked up from (Node's way: its node_modules, then its parents'). */
export interface PluginPlace {
  dir: string;
  /** Why this place is searched, for messages: "the config file's directory". */
  label: string;
}

/** Where plugins are looked for, and what to tell a user whose plugin is in none of them. */
export interface PluginSearch {
  /** The config file's directory: files are relative to it, and packages are looked up there first. */
  configDir: string;
  /** Where packages are looked up next, in order: the project or global prefix of the running CLI. */
  besides?: readonly PluginPlace[];
  /** The one command that installs a package where it will be found, e.g. `npm install -g <pkg>`. */
  installCommand?: (packageName: string) => string;
}

/** Extensions tried, in order, for a local file named without one. */
const LOCAL_EXTENSIONS = ['.mjs', '.js'] as const;

export function isPathSpec(spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || path.isAbsolute(spec);
}

/** The package a specifier names: `@acme/p/plugin` → `@acme/p`, `p/sub` → `p`. */
export function packageNameOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

/** Every place a package is looked up from, the config file's directory first. */
export function searchPlaces(search: PluginSearch): PluginPlace[] {
  const places = [{ dir: search.configDir, label: "the config file's directory" }];
  for (const place of search.besides ?? []) {
    if (!places.some((known) => path.resolve(known.dir) === path.resolve(place.dir))) {
      places.push(place);
    }
  }
  return places;
}

/** The file URL of a local plugin: the path as given, else with `.mjs` or `.js` added. */
function resolveLocalFile(spec: string, configDir: string): string {
  const file = path.resolve(configDir, spec);
  const candidates = path.extname(file) === '' ? LOCAL_EXTENSIONS.map((ext) => file + ext) : [];
  const found = [file, ...candidates].find((candidate) =>
    fs.statSync(candidate, { throwIfNoEntry: false })?.isFile(),
  );
  if (found === undefined) {
    const tried =
      candidates.length > 0 ? ` (nor ${candidates.map((c) => path.basename(c)).join(' or ')})` : '';
    throw new PluginError(spec, `is not installed: no file at ${file}${tried}`);
  }
  return pathToFileURL(found).href;
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
}

/** The file URL of a package plugin, from the first place that has it. */
function resolvePackage(spec: string, search: PluginSearch): string {
  const places = searchPlaces(search);
  for (const place of places) {
    try {
      // Resolved as if imported by a file in that directory, so its node_modules come first.
      return resolveModule(spec, pathToFileURL(path.join(place.dir, 'noop.js')).href);
    } catch (error) {
      if (!isNotFound(error)) {
        throw new PluginError(
          spec,
          `cannot be resolved from ${place.dir}: ${errorMessage(error)}`,
          {
            cause: error,
          },
        );
      }
    }
  }
  const looked = places.map((place) => `${place.dir} (${place.label})`).join(', then from ');
  const name = packageNameOf(spec);
  const install =
    search.installCommand?.(name) ?? `run "npm install ${name}" in ${search.configDir}`;
  throw new PluginNotInstalledError(spec, { looked, install });
}

/** Finds the file URL of a plugin: a local file, or a package from the first place that has it. */
export function resolvePlugin(spec: string, search: PluginSearch): string {
  return isPathSpec(spec) ? resolveLocalFile(spec, search.configDir) : resolvePackage(spec, search);
}
