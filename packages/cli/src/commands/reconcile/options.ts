/**
 * The options of `webhook-gateway reconcile`, checked with zod: `--since 24h` (s, m, h, d), an
 * optional `--route`, `--dry-run`, `--json`.
 */
import { z } from 'zod';
import { OptionsError } from '../deliveries/options.js';

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `--since` when not given. */
export const DEFAULT_SINCE = '24h';

/** `90s`, `30m`, `24h`, `3d` → milliseconds. */
const durationSchema = z
  .string()
  .trim()
  .regex(/^\d+[smhd]$/, { error: 'must be a number and a unit: s, m, h or d (for example 24h)' })
  .transform((text) => Number(text.slice(0, -1)) * (UNIT_MS[text.slice(-1)] ?? 0))
  .pipe(z.number().positive({ error: 'must be more than 0' }));

const reconcileOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  route: z.string().min(1, { error: 'must not be empty' }).optional(),
  since: durationSchema.prefault(DEFAULT_SINCE),
  dryRun: z.boolean().default(false),
  json: z.boolean().default(false),
});

export type ReconcileOptions = z.output<typeof reconcileOptionsSchema>;

/** Parses the options, or throws an `OptionsError` naming the option (exit 2). */
export function parseReconcileOptions(raw: unknown): ReconcileOptions {
  const parsed = reconcileOptionsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const option = issue?.path[0] === 'dryRun' ? 'dry-run' : String(issue?.path[0] ?? '');
  throw new OptionsError(`--${option} ${issue?.message ?? 'is invalid'}`);
}
