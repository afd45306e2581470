/** The value axis of a chart: a round top and evenly spaced round ticks from zero. */

/** 1, 2, 2.5 or 5 times a power of ten: the smallest at least `rough`. */
function roundStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10;
  return step * power;
}

/**
 * Ticks from 0 to a round top at or above `max`, about `count` steps apart; whole numbers when
 * `whole` (a count of deliveries has no half).
 *
 * @example
 * valueTicks(7) // [0, 2, 4, 6, 8]
 */
export function valueTicks(
  max: number,
  options: { count?: number; whole?: boolean } = {},
): number[] {
  const count = options.count ?? 4;
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  let step = roundStep(max / count);
  if (options.whole) step = Math.max(1, Math.ceil(step));
  const steps = Math.ceil(max / step - 1e-9);
  // Rounded: 0.1 + 0.2 must read 0.3.
  return Array.from({ length: steps + 1 }, (_, index) => Number((index * step).toPrecision(12)));
}

/** Durations a time axis steps by: they read as whole seconds, minutes or hours. */
const DURATION_STEPS_MS = [
  100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
  900_000, 1_800_000, 3_600_000, 7_200_000,
];

/**
 * Ticks for a time axis in milliseconds: from 0 in a round duration (10 s, 30 s, 1 min, 5 min)
 * to at or above `maxMs`, at most `count` steps.
 *
 * @example
 * durationTicks(100_000) // [0, 30_000, 60_000, 90_000, 120_000]
 */
export function durationTicks(maxMs: number, count = 4): number[] {
  if (!(maxMs > 0) || !Number.isFinite(maxMs)) return [0, 1000];
  const step =
    DURATION_STEPS_MS.find((candidate) => candidate * count >= maxMs) ??
    Math.ceil(maxMs / count / 3_600_000) * 3_600_000;
  const steps = Math.ceil(maxMs / step);
  return Array.from({ length: steps + 1 }, (_, index) => index * step);
}

/** A tick of a time axis: `500 ms`, `30 s`, `2 min`, `1.5 h`. */
export function durationTickLabel(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 3_600_000).toFixed(1))} h`;
}
