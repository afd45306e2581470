/** The report `import hermes` prints: what was written, each key's fate, what to fix before start. */
import type { ImportNote } from './import-notes.js';

export interface ImportReport {
  from: { config: string; subscriptions: string | undefined };
  to: string;
  dryRun: boolean;
  notes: ImportNote[];
  routes: string[];
  subscriptions: string[];
  files: string[];
  secretsWritten: number;
  problems: string[];
}

const KIND_ORDER: readonly ImportNote['kind'][] = ['mapped', 'changed', 'left out'];

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The report as text: a summary first, then the notes grouped by kind, then the problems the
 * gateway would stop on.
 */
export function formatImportReport(report: ImportReport): string {
  const lines: string[] = [];
  const verb = report.dryRun ? 'Would import' : 'Imported';
  lines.push(
    `${verb} ${plural(report.routes.length, 'route')} and ${plural(report.subscriptions.length, 'subscription')} into ${report.to}` +
      (report.files.length > 0 ? `, and copied ${plural(report.files.length, 'file')}` : '') +
      '.',
  );
  if (report.dryRun) lines.push('Dry run: nothing was written.');
  for (const kind of KIND_ORDER) {
    const notes = report.notes.filter((note) => note.kind === kind);
    if (notes.length === 0) continue;
    lines.push('', `${kind} (${notes.length}):`);
    for (const note of notes) lines.push(`  ${note.key}`, `    → ${note.detail}`);
  }
  if (report.secretsWritten > 0) {
    lines.push(
      '',
      `${report.to} now holds ${plural(report.secretsWritten, 'secret')} copied from Hermes' files, so it was written with mode 0600. Move them to the environment (\${VAR}) before you keep the file anywhere shared.`,
    );
  }
  if (report.problems.length > 0) {
    lines.push('', `Before you start the gateway (${plural(report.problems.length, 'problem')}):`);
    for (const problem of report.problems) lines.push(`  ${problem}`);
  } else if (!report.dryRun) {
    lines.push('', 'The config is valid: start the gateway with webhook-gateway gateway.');
  }
  return lines.join('\n');
}
