import { describe, expect, it } from 'vitest';
import { altforgeEnv, altforgeNoteArgv } from './altforge-cli.js';
import { altforgeSettingsSchema } from './settings.js';

/** `platforms.altforge` as the plugin validates it. */
const altforgeSettings = (altforge: Record<string, unknown>) =>
  altforgeSettingsSchema.parse(altforge);

describe('altforgeNoteArgv', () => {
  it('is `mr note <iid> --repo <path>`, the note going on stdin', () => {
    expect(altforgeNoteArgv({ path: 'group/sub/project', iid: 3 })).toEqual([
      'mr',
      'note',
      '3',
      '--repo',
      'group/sub/project',
    ]);
  });
});

describe('altforgeEnv', () => {
  it('passes GITLAB_TOKEN and GITLAB_HOST when configured', () => {
    expect(altforgeEnv(altforgeSettings({ token: 'glpat-x', host: 'gitlab.example.com' }))).toEqual(
      {
        NO_COLOR: '1',
        GITLAB_TOKEN: 'glpat-x',
        GITLAB_HOST: 'gitlab.example.com',
      },
    );
  });

  it('adds no credentials when none are configured', () => {
    expect(altforgeEnv(altforgeSettings({}))).toEqual({ NO_COLOR: '1' });
  });
});
