/**
 * The config slices this plugin owns: `platforms.forge` (gh) and `platforms.altforge` (glab).
 * Core validates them with the rest of the config, with these defaults.
 */
import { z } from 'zod';

/** How a forge CLI is found, and which host and token it uses; only the CLI's default differs. */
function cliSettingsSchema(defaultCli: string) {
  return z
    .strictObject({
      cli: z.string().min(1).default(defaultCli),
      host: z.string().min(1).optional(),
      token: z.string().min(1).optional(),
      timeout_s: z.number().positive().default(60),
    })
    .prefault({});
}

/** `platforms.forge`: `gh`. */
export const forgeSettingsSchema = cliSettingsSchema('gh');

/** `platforms.altforge`: `glab`. */
export const altforgeSettingsSchema = cliSettingsSchema('glab');

export type ForgeSettings = z.output<typeof forgeSettingsSchema>;
export type AltforgeSettings = z.output<typeof altforgeSettingsSchema>;
