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

export function readAgentRecords(file: string): AgentRecord[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
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
