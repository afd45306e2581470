/** How times and durations read on the dashboard. */

/** `2025-01-02 03:04:05 UTC`, or an em dash for "not yet". */
export function formatTime(ms: number | null): string {
  if (ms === null) return '—';
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The machine-readable form of a time, for `<time datetime>`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** `350 ms`, `2.4 s`, `3 min 5 s`, `2 h 10 min`. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalS = Math.round(ms / 1000);
  if (totalS < 3600) return `${Math.floor(totalS / 60)} min ${totalS % 60} s`;
  return `${Math.floor(totalS / 3600)} h ${Math.floor((totalS % 3600) / 60)} min`;
}
