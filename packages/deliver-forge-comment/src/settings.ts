/**
 * The config slices this plugin owns: `platforms.forge` (gh) and `platforms.altforge` (glab).
 * Core validates them with the rest of the config, with these defaults.
 */
import { z } from 'zod';

/** `platforms.forge`: how `gh` is found and which host and token it uses. */
export const forgeSettingsSchema = z
  .strictObject({
    cli: z.string().min(1).default('gh'),
    host: z.string().min(1).optional(),
    token: z.string().min(1).optional(),
    timeout_s: z.number().positive().default(60),
  })
  .prefault({});

/** `platforms.altforge`: how `glab` is found and which host and token it uses. */
export const altforgeSettingsSchema = z
  .strictObject({
    cli: z.string().min(1).default('glab'),
    host: z.string().min(1).optional(),
    token: z.string().min(1).optional(),
    timeout_s: z.number().positive().default(60),
  })
  .prefault({});

export type ForgeSettings = z.output<typeof forgeSettingsSchema>;
export type AltforgeSettings = z.output<typeof altforgeSettingsSchema>;
