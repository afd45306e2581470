/** The options of `webhook-gateway app create`, checked with zod (a bad one is a usage error). */
import { z } from 'zod';
import { parseOptions } from '../deliveries/options.js';

/** The route `app create` points the App's webhook at unless `--route` names another: `init`'s. */
export const DEFAULT_APP_ROUTE = 'pull-requests';

const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const createOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  org: z
    .string()
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/, {
      error: 'must be an organisation login (letters, digits and inner "-")',
    })
    .optional(),
  publicUrl: webUrl.optional(),
  githubUrl: webUrl.optional(),
  route: z
    .string()
    .regex(/^[^/\s]+$/, { error: 'must be a route name: no "/" or spaces' })
    .default(DEFAULT_APP_ROUTE),
  name: z.string().trim().min(1).max(34, { error: 'must be at most 34 characters' }).optional(),
  force: z.boolean().default(false),
});

export type CreateOptions = z.output<typeof createOptionsSchema>;

/** What commander parsed, checked; throws an `OptionsError` naming the option. */
export function parseCreateOptions(raw: unknown): CreateOptions {
  return parseOptions(createOptionsSchema, raw);
}
