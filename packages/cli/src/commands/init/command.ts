/** `webhook-gateway init`: a new gateway home with a commented config.yaml and an example skill. */
import { resolveHome } from '@webhook-gateway/core/runtime';
import type { Command } from 'commander';
import { z } from 'zod';
import { addHomeOptions } from '../../home-options.js';
import { generateSecret } from '../../secret.js';
import { writeInitFiles } from './files.js';

const initOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  force: z.boolean().default(false),
});

function init(raw: unknown): void {
  const options = initOptionsSchema.parse(raw);
  const home = resolveHome(options.home);
  const files = writeInitFiles({ home, secret: generateSecret(), force: options.force });
  for (const { file, mode, written } of files) {
    const how = written ? `wrote ${file}` : `kept  ${file} (exists)`;
    process.stdout.write(
      `${how}${written && mode === 0o600 ? ' (mode 0600: it holds the webhook secret)' : ''}\n`,
    );
  }
  const homeFlag = options.home === undefined ? '' : ` --home ${home}`;
  process.stdout.write(
    [
      '',
      'The webhook secret is platforms.webhook.extra.secret in config.yaml: register the same value at the forge.',
      'Next:',
      `  webhook-gateway config validate${homeFlag}`,
      `  webhook-gateway gateway${homeFlag}`,
      '',
    ].join('\n'),
  );
}

export function registerInitCommand(program: Command): void {
  addHomeOptions(
    program
      .command('init')
      .description('write a commented config.yaml, its JSON Schema and an example skill'),
    { config: false },
  )
    .option('--force', 'overwrite an existing config.yaml')
    .action((options: unknown) => {
      init(options);
    });
}
