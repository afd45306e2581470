/** Writes a new gateway home: config.yaml (mode 0600), its JSON Schema, an example skill. */
import fs from 'node:fs';
import path from 'node:path';
import { configJsonSchema, configSlicesOf } from '@webhook-gateway/core/runtime';
import { builtinPlugins } from '../../builtin-plugins.js';
import { writeAtomically } from '../../write-atomically.js';
import { EXAMPLE_SKILL_NAME, EXAMPLE_SKILL_TEXT } from './skill.js';
import { SCHEMA_FILE_NAME, initConfigYaml } from './template.js';

/** `init` found a config and was not told to replace it. */
export class ConfigExistsError extends Error {
  constructor(file: string) {
    super(`${file} already exists; keeping it (use --force to overwrite it)`);
    this.name = 'ConfigExistsError';
  }
}

export interface InitFile {
  file: string;
  /** Octal mode, e.g. 0o600. */
  mode: number;
  /** False when the file existed and was kept. */
  written: boolean;
}

/**
 * Writes the files of a new home. Refuses when config.yaml exists unless `force`; an existing
 * example skill is never overwritten (it may have been edited).
 */
export function writeInitFiles(options: {
  home: string;
  secret: string;
  force: boolean;
}): InitFile[] {
  const configFile = path.join(options.home, 'config.yaml');
  if (fs.existsSync(configFile) && !options.force) throw new ConfigExistsError(configFile);
  fs.mkdirSync(options.home, { recursive: true, mode: 0o700 });

  const files: InitFile[] = [];
  writeAtomically(configFile, initConfigYaml({ secret: options.secret }), 0o600);
  files.push({ file: configFile, mode: 0o600, written: true });

  const schemaFile = path.join(options.home, SCHEMA_FILE_NAME);
  const slices = configSlicesOf(builtinPlugins().map((loaded) => loaded.plugin));
  writeAtomically(schemaFile, `${JSON.stringify(configJsonSchema(slices), null, 2)}\n`, 0o644);
  files.push({ file: schemaFile, mode: 0o644, written: true });

  const skillFile = path.join(options.home, 'skills', EXAMPLE_SKILL_NAME, 'SKILL.md');
  const keepSkill = fs.existsSync(skillFile);
  if (!keepSkill) {
    fs.mkdirSync(path.dirname(skillFile), { recursive: true });
    writeAtomically(skillFile, EXAMPLE_SKILL_TEXT, 0o644);
  }
  files.push({ file: skillFile, mode: 0o644, written: !keepSkill });
  return files;
}
