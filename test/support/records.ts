/** Reads what the test `command` agent recorded. */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './gateway.js';

export const recordAgentPath = path.join(repoRoot, 'test/support/agents/record-agent.mjs');

export interface AgentRecord {
  prompt: string;
  route: string;
  event: string;
  deliveryId: string;
  at: number;
}

/**
 * The records written so far. The agent appends while tests poll, so a last line without its
 * newline is still being written and is left for the next read.
 */
export function readAgentRecords(file: string): AgentRecord[] {
  if (!fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  return lines
    .slice(0, -1)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AgentRecord);
}

/** The agent block of a config that runs the recording agent. */
export function recordingAgent(outFile: string, mode = 'echo'): Record<string, unknown> {
  return {
    runner: 'command',
    command: [process.execPath, recordAgentPath, outFile, mode],
    timeout_s: 30,
  };
}
