/**
 * A review's run details (`deliver_extra.details: true`): a collapsed footer saying which model
 * read what, at what cost, and which delivery it was, so a reader can see what a review covered
 * without the dashboard. Built once, after the run, and kept in the answer: a retried delivery
 * posts the same details, and a check's summary carries them with the rest of the answer.
 */
import { promptTokenSplit, type AgentAccounting } from './delivery.js';

export interface RunDetailsFacts {
  /** The delivery's accounting, every attempt's run added up. */
  agent: AgentAccounting | null;
  /** The route's runner: named when the accounting names no model. */
  runner: string;
  /** How long the agent ran in this attempt, in ms. */
  runMs: number | undefined;
  /** What the diff covered (`ReviewContext.range`); absent when the route read no diff. */
  range?: string | undefined;
  /** The changed files the review did not read. */
  skippedFiles?: readonly string[] | undefined;
  /** The sender's delivery id. */
  deliveryId: string;
}

/** Skipped files named one by one before the rest are counted. */
const NAMED_SKIPPED = 20;

const count = (value: number): string => value.toLocaleString('en-US');

/** `0.0165 USD`: at most six decimals, no trailing zeros (as `deliveries show` prints it). */
function money(amount: number, currency: string): string {
  return `${Number(amount.toFixed(6))} ${currency}`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A table cell: no pipe or line break can end it early. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * The details as Markdown: a `<details>` block of one table.
 *
 * @example runDetails({ agent, runner: 'openai', runMs: 41_000, deliveryId: 'd-1' })
 */
export function runDetails(facts: RunDetailsFacts): string {
  const rows: [string, string][] = [];
  const agent = facts.agent;
  rows.push(['Model', agent?.model ?? agent?.runner ?? facts.runner]);
  if (agent?.usage) {
    const { cached } = promptTokenSplit(agent.usage);
    rows.push([
      'Tokens',
      `${count(agent.usage.promptTokens)} prompt (${count(cached)} cached), ${count(agent.usage.completionTokens)} completion`,
    ]);
  }
  if (agent?.cost) rows.push(['Cost', money(agent.cost.amount, agent.cost.currency)]);
  if (facts.runMs !== undefined) rows.push(['Time', seconds(facts.runMs)]);
  if (facts.range !== undefined && facts.range !== '') rows.push(['Reviewed', facts.range]);
  const skipped = facts.skippedFiles ?? [];
  if (facts.range !== undefined || skipped.length > 0) {
    const named = skipped.slice(0, NAMED_SKIPPED).map((path) => `\`${path}\``);
    const more = skipped.length - named.length;
    rows.push([
      'Skipped files',
      skipped.length === 0 ? 'none' : `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    ]);
  }
  rows.push(['Delivery', `\`${facts.deliveryId}\``]);
  return [
    '<details><summary>Run details</summary>',
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([name, value]) => `| ${name} | ${cell(value)} |`),
    '',
    '</details>',
  ].join('\n');
}
