/** Files the CLI writes into the gateway home, whole or not at all. */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes `text` through a temporary file and a rename, so a watching gateway never sees half a
 * file, with exactly `mode` (0o600 for a file that holds a secret or a key).
 */
export function writeAtomically(file: string, text: string, mode: number): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  // Created with the final mode, so a key or secret is never readable by others, even briefly.
  fs.writeFileSync(temporary, text, { mode });
  // The mode given to writeFileSync is masked by the umask; say it exactly.
  fs.chmodSync(temporary, mode);
  fs.renameSync(temporary, file);
}
