/**
 * `<home>/gateway.pid`: the process id of the gateway serving from a home, written once it
 * serves and removed when it exits, so `webhook-gateway drain` can signal it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeAtomically } from './write-atomically.js';

const pidSchema = z
  .string()
  .trim()
  .regex(/^\d+$/, { error: 'is not a process id' })
  .transform(Number)
  .pipe(z.number().int().positive());

export function pidFilePath(home: string): string {
  return path.join(home, 'gateway.pid');
}

/**
 * Writes this process's id; the returned function removes the file if it still names this
 * process (a second gateway started on the same home has replaced it otherwise).
 */
export function writePidFile(home: string): () => void {
  const file = pidFilePath(home);
  writeAtomically(file, `${process.pid}\n`, 0o644);
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
    } catch {
      // Already gone: nothing to remove.
    }
  };
}

/** The process id in `<home>/gateway.pid`, or undefined when there is no such file. */
export function readPidFile(home: string): number | undefined {
  const file = pidFilePath(home);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = pidSchema.safeParse(text);
  if (!pid.success)
    throw new Error(`${file} is damaged: ${JSON.stringify(text.trim())} is not a process id`);
  return pid.data;
}

/** Whether a process with this id exists (one of another user counts). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
