/**
 * The config slices this plugin owns: `platforms.forge` (gh) and `platforms.altforge` (glab).
 * Core validates them with the rest of the config, with these defaults.
 */
import { z } from 'zod';

/** How a forge CLI is found, and which host and token it uses; only the CLI's default differs. */
const cliKeys = (defaultCli: string) => ({
  cli: z.string().min(1).default(defaultCli),
  host: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
  timeout_s: z.number().positive().default(60),
});

/** A number, or digits from an expanded `${VAR}`, as a positive integer. */
const appId = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\s*\d+\s*$/)
        .transform(Number),
    ],
    {
      error: 'app_id must be a positive integer (the App ID on the App’s settings page)',
    },
  )
  .pipe(
    z
      .number()
      .int({ error: 'app_id must be a positive integer' })
      .positive({ error: 'app_id must be a positive integer' }),
  );

/**
 * `platforms.forge.app`: the GitHub App the gateway acts as. Its private key comes from a file
 * (checked at start: readable, a PEM key, not readable by others) or from the config itself.
 */
const forgeAppSchema = z
  .strictObject({
    app_id: appId,
    private_key_file: z.string().min(1).optional(),
    private_key: z.string().min(1).optional(),
  })
  .refine((app) => (app.private_key_file === undefined) !== (app.private_key === undefined), {
    error: 'set exactly one of private_key_file and private_key',
  });

/** `platforms.forge`: `gh`, or the GitHub App with `app`. */
export const forgeSettingsSchema = z
  .strictObject({
    ...cliKeys('gh'),
    /**
     * The forge's REST API base (`https://api.github.com`; Enterprise Server:
     * `https://<host>/api/v3`). gh's host (GH_HOST) is read from it when `host` is not set.
     */
    api_url: z.url({ protocol: /^https?$/ }).optional(),
    app: forgeAppSchema.optional(),
  })
  .prefault({});

/** `platforms.altforge`: `glab`. */
export const altforgeSettingsSchema = z
  .strictObject({
    ...cliKeys('glab'),
    /**
     * Tokens by project path pattern (`acme/*`, `acme/payments`): the most specific pattern that
     * matches the payload's `project.path_with_namespace` wins; none matching falls back to
     * `token`.
     */
    tokens: z.record(z.string().min(1), z.string().min(1)).optional(),
  })
  .prefault({});

export type ForgeSettings = z.output<typeof forgeSettingsSchema>;
export type ForgeAppSettings = z.output<typeof forgeAppSchema>;
export type AltforgeSettings = z.output<typeof altforgeSettingsSchema>;
