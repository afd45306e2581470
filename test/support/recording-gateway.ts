/**
 * The set-up most e2e suites share: a home whose config holds `platforms.webhook.extra`, the
 * built CLI's gateway on it with the recording agent, and what that agent recorded.
 */
import path from 'node:path';
import {
  makeHome,
  startGateway,
  waitFor,
  writeConfig,
  type ConfigObject,
  type StartedGateway,
} from './gateway.js';
import { readAgentRecords, recordingAgent, type AgentRecord } from './records.js';

/** A home (a new one unless given) whose config is `platforms.webhook.extra: extra`. */
export function webhookHome(extra: ConfigObject, home = makeHome()): string {
  writeConfig(home, { platforms: { webhook: { extra } } });
  return home;
}

export interface RecordingGateway extends StartedGateway {
  /** `<home>/agent.jsonl`: a record per agent run. */
  agentLog: string;
  /** The agent's records so far. */
  agentRuns(): AgentRecord[];
  /** The agent's record of `deliveryId`, once it ran. */
  agentRun(deliveryId: string): Promise<AgentRecord>;
}

/**
 * Starts the gateway with `extra` as `platforms.webhook.extra` and the recording agent, in `home`
 * (a new one unless given: a suite that needs files there writes them first).
 */
export async function startRecordingGateway(
  extra: ConfigObject,
  options: { home?: string } = {},
): Promise<RecordingGateway> {
  const home = options.home ?? makeHome();
  const agentLog = path.join(home, 'agent.jsonl');
  const gateway = await startGateway({
    home,
    config: { agent: recordingAgent(agentLog), platforms: { webhook: { extra } } },
  });
  const agentRuns = () => readAgentRecords(agentLog);
  return {
    ...gateway,
    agentLog,
    agentRuns,
    agentRun: (deliveryId) =>
      waitFor(
        () => agentRuns().find((record) => record.deliveryId === deliveryId),
        `the agent's run of ${deliveryId}`,
      ),
  };
}
