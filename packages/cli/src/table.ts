/** Human output: aligned columns, no colour (commands print `--json` for scripts). */

/** Formats rows as aligned columns under a header; cells longer than `maxWidth` are cut with "…". */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  maxWidth = 48,
): string {
  const cut = (cell: string) => {
    const flat = cell.replace(/\s+/g, ' ');
    return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const all = [header, ...rows].map((row) => row.map(cut));
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A timestamp (ms) as local ISO-like text to the second, or "-" when absent. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A duration (ms) as "850 ms", "12.3 s" or "4 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
