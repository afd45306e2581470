/** `/dashboard/deliveries/<id>`: one delivery, from the headers kept to each attempt's error. */
import {
  findingFate,
  describeHiddenContent,
  promptTokenSplit,
  suggestionAsText,
  type AgentAccounting,
  type DeliveryRecord,
  type Finding,
  type FindingFate,
  type DeliverySafety,
  type LineComment,
  type TokenUsage,
} from '@webhook-gateway/core';
import { formatDuration, formatTime, isoTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { canReplay } from '../replay-rule.js';
import { page, statusBadge } from './layout.js';

function time(ms: number | null): SafeHtml {
  return ms === null ? html`—` : html`<time datetime="${isoTime(ms)}">${formatTime(ms)}</time>`;
}

/** Text in a scrollable block, or a note when there is none yet. */
function block(text: string | null, none: string): SafeHtml {
  return text === null
    ? html`<p class="hint">${none}</p>`
    : html`<pre class="block" tabindex="0">${text}</pre>`;
}

/** A comment's line, or its range `start–line`. */
function linesOf(comment: LineComment): string {
  const start = comment.start_line;
  return start !== undefined && start < comment.line
    ? `${start}–${comment.line}`
    : String(comment.line);
}

/** A comment's words, with its suggested replacement as text. */
function textOf(comment: LineComment): string {
  if (comment.suggestion === undefined) return comment.body;
  return `${comment.body}\n\n${suggestionAsText(comment.suggestion)}`;
}

/**
 * What the gateway took out: hidden content of the payload (someone tried to steer the agent
 * unseen) and secrets of the answer. Nothing when it took nothing.
 */
function safetySection(safety: DeliverySafety | undefined): SafeHtml {
  if (safety === undefined) return html``;
  const hidden = safety.hidden ?? [];
  return html`<h2>Taken out</h2>
    <ul id="safety">
      ${hidden.map(
        (note) =>
          html`<li>
            Hidden content removed from the payload: <code>${describeHiddenContent(note)}</code>
          </li>`,
      )}
      ${
        safety.redactions
          ? html`<li>Secrets redacted from the answer before it left: ${safety.redactions}</li>`
          : html``
      }
    </ul>`;
}

/** The agent's remarks on lines, as a review target posts them; nothing when it made none. */
function lineCommentsSection(comments: readonly LineComment[] | undefined): SafeHtml {
  if (comments === undefined || comments.length === 0) return html``;
  return html`<h2>Line comments</h2>
    <div class="table-wrap">
      <table class="cards" id="line-comments">
        <caption>
          The agent's comments on lines of the new code, in the order it made them
        </caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Line</th>
            <th scope="col">Comment</th>
          </tr>
        </thead>
        <tbody>
          ${comments.map(
            (comment) =>
              html`<tr>
                <td data-label="File"><code>${comment.path}</code></td>
                <td data-label="Line">${linesOf(comment)}</td>
                <td data-label="Comment">
                  <pre class="block" tabindex="0">${textOf(comment)}</pre>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** How the page words each fate. */
const FATE_TEXT: Record<FindingFate, string> = {
  new: 'New: posted by this review',
  still_open: 'Still open: raised again, not posted again',
  open: 'Open',
  resolved: 'Resolved by a person',
  dismissed: 'Dismissed by a person',
  fixed: 'Fixed: the gateway resolved its thread',
};

/**
 * The findings the route keeps for this request: this review's counts (new, still open, resolved
 * since the last review), then each finding with its fate; nothing when none is kept.
 */
function findingsSection(record: DeliveryRecord, findings: readonly Finding[]): SafeHtml {
  if (findings.length === 0) return html``;
  const fates = findings.map((finding) => ({
    finding,
    fate: findingFate(finding, record.deliveryId),
  }));
  const count = (wanted: (fate: FindingFate) => boolean) =>
    fates.filter(({ fate }) => wanted(fate)).length;
  const closedNow = fates.filter(({ finding }) => finding.closedBy === record.deliveryId).length;
  return html`<h2>Findings</h2>
    <dl class="facts panel" id="finding-counts">
      <dt>New</dt>
      <dd>${count((fate) => fate === 'new')}</dd>
      <dt>Still open</dt>
      <dd>${count((fate) => fate === 'still_open')}</dd>
      <dt>Resolved since the last review</dt>
      <dd>${closedNow}</dd>
    </dl>
    <div class="table-wrap">
      <table class="cards" id="findings">
        <caption>
          Every finding this route raised on the request, with its fate as this review saw it
        </caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Line</th>
            <th scope="col">Fate</th>
            <th scope="col">Finding</th>
          </tr>
        </thead>
        <tbody>
          ${fates.map(
            ({ finding, fate }) =>
              html`<tr>
                <td data-label="File"><code>${finding.path}</code></td>
                <td data-label="Line">${finding.line}</td>
                <td data-label="Fate">${FATE_TEXT[fate]}</td>
                <td data-label="Finding"><pre class="block" tabindex="0">${finding.body}</pre></td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

function attemptsTable(record: DeliveryRecord): SafeHtml {
  if (record.attemptLog.length === 0) return html`<p class="hint">No attempt has started yet.</p>`;
  return html`<div class="table-wrap">
    <table class="cards" id="attempts">
      <caption>
        Every attempt, oldest first (a replay adds attempts)
      </caption>
      <thead>
        <tr>
          <th scope="col">Attempt</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
          <th scope="col">Took</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        ${record.attemptLog.map(
          (attempt) =>
            html`<tr data-attempt="${attempt.attempt}">
              <td data-label="Attempt">${attempt.attempt}</td>
              <td data-label="Started">${time(attempt.startedAt)}</td>
              <td data-label="Finished">${time(attempt.finishedAt)}</td>
              <td data-label="Took">
                ${
                  attempt.finishedAt === null
                    ? 'running…'
                    : formatDuration(attempt.finishedAt - attempt.startedAt)
                }
              </td>
              <td data-label="Result">
                ${
                  attempt.finishedAt === null
                    ? 'running'
                    : attempt.error === null
                      ? 'ok'
                      : html`<code>${attempt.error}</code>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** `5622 (prompt 5210: 4096 cached, 1114 uncached; completion 412)` */
function tokensText(usage: TokenUsage): string {
  const prompt = promptTokenSplit(usage);
  return `${usage.totalTokens} (prompt ${usage.promptTokens}: ${prompt.cached} cached, ${prompt.uncached} uncached; completion ${usage.completionTokens})`;
}

function agentSection(agent: AgentAccounting | null): SafeHtml {
  if (agent === null) return html`<p class="hint">No agent accounting recorded.</p>`;
  const usage = agent.usage;
  const toolCalls = agent.toolCalls ?? [];
  return html`<dl class="facts">
      <dt>Runner</dt>
      <dd>${agent.runner}</dd>
      <dt>Model</dt>
      <dd>${agent.model ?? '—'}</dd>
      <dt>Turns</dt>
      <dd>${agent.turns ?? '—'}</dd>
      <dt>Tokens</dt>
      <dd>${usage ? tokensText(usage) : '—'}</dd>
      <dt>Cost</dt>
      <dd>${agent.cost ? `${agent.cost.amount} ${agent.cost.currency}` : '—'}</dd>
    </dl>
    <h3>Tool calls</h3>
    ${
      toolCalls.length === 0
        ? html`<p class="hint">No tool calls.</p>`
        : html`<div class="table-wrap">
            <table class="cards" id="tool-calls">
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Command</th>
                  <th scope="col">Exit code</th>
                  <th scope="col">Took</th>
                </tr>
              </thead>
              <tbody>
                ${toolCalls.map(
                  (call) =>
                    html`<tr>
                      <td data-label="Tool">${call.tool}</td>
                      <td data-label="Command"><code>${call.command}</code></td>
                      <td data-label="Exit code">${call.exitCode ?? '—'}</td>
                      <td data-label="Took">${formatDuration(call.durationMs)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}

/** The replay button, or why there is none yet. */
function replayForm(record: DeliveryRecord, csrf: string | undefined): SafeHtml {
  if (!canReplay(record)) {
    return html`<p class="actions hint">
      Replay becomes possible once this delivery has finished (it is ${record.status}).
    </p>`;
  }
  const action = `/dashboard/deliveries/${encodeURIComponent(record.id)}/replay`;
  return html`<form class="actions" method="post" action="${action}">
    ${csrf === undefined ? html`` : html`<input type="hidden" name="csrf" value="${csrf}" />`}
    <button type="submit">Replay</button>
    <p>Runs this delivery again from the start: a new prompt, agent run and delivery.</p>
  </form>`;
}

/**
 * The parts an attempt changes, with the replay button (offered only once finished): what the
 * live refresh fetches.
 */
export function deliveryLiveParts(
  record: DeliveryRecord,
  csrf?: string,
  findings: readonly Finding[] = [],
): SafeHtml {
  return html`${replayForm(record, csrf)}
    <dl class="facts panel">
      <dt>Status</dt>
      <dd>${statusBadge(record.status, record.partial)}</dd>
      ${
        record.supersededBy === undefined
          ? html``
          : html`<dt>Superseded by</dt>
              <dd>
                <a href="/dashboard/deliveries/${encodeURIComponent(record.supersededBy)}"
                  ><code>${record.supersededBy}</code></a
                >
              </dd>`
      }
      <dt>Route</dt>
      <dd>${record.route}</dd>
      <dt>Event</dt>
      <dd>${record.event}</dd>
      <dt>Action</dt>
      <dd>${record.action ?? '—'}</dd>
      <dt>Delivery id</dt>
      <dd><code>${record.deliveryId}</code></dd>
      <dt>Journal id</dt>
      <dd><code>${record.id}</code></dd>
      <dt>Received</dt>
      <dd>${time(record.receivedAt)}</dd>
      <dt>Attempts</dt>
      <dd>${record.attempts} of at most ${record.maxAttempts}</dd>
      <dt>Last error</dt>
      <dd>${record.lastError === null ? '—' : html`<code>${record.lastError}</code>`}</dd>
      ${
        // The agent's verdict, which a check or commit status on the forge shows.
        record.conclusion === undefined
          ? html``
          : html`<dt>Conclusion</dt>
              <dd id="conclusion">
                ${record.conclusion.value}${
                  record.conclusion.reason === undefined ? '' : `: ${record.conclusion.reason}`
                }
              </dd>`
      }
    </dl>
    <h2>Attempts</h2>
    ${attemptsTable(record)}
    <h2>Agent</h2>
    ${agentSection(record.agent)} ${safetySection(record.safety)}
    <h2>Prompt</h2>
    ${block(record.prompt, 'Not rendered yet.')}
    <h2>Answer</h2>
    ${block(record.answer, 'No answer yet.')} ${lineCommentsSection(record.lineComments)}
    ${findingsSection(record, findings)}`;
}

function headersTable(headers: Record<string, string>): SafeHtml {
  const entries = Object.entries(headers);
  if (entries.length === 0) return html`<p class="hint">No headers kept.</p>`;
  return html`<dl class="facts panel">
    ${entries.map(
      ([name, value]) =>
        html`<dt><code>${name}</code></dt>
          <dd><code>${value}</code></dd>`,
    )}
  </dl>`;
}

/** The whole page; `replayed` shows that a replay was just queued. */
export function deliveryPage(options: {
  record: DeliveryRecord;
  replayed: boolean;
  csrf?: string;
  refreshMs: number;
  /** The findings the route keeps for the same pull or merge request. */
  findings?: readonly Finding[];
}): SafeHtml {
  const { record } = options;
  return page(
    {
      title: `Delivery ${record.deliveryId}`,
      section: 'deliveries',
      refreshMs: options.refreshMs,
      ...(options.csrf === undefined ? {} : { csrf: options.csrf }),
    },
    html`<p>
        <a href="/dashboard?route=${encodeURIComponent(record.route)}"
          >← Deliveries of ${record.route}</a
        >
      </p>
      <h1>Delivery <code>${record.deliveryId}</code></h1>
      ${
        options.replayed
          ? html`<p class="notice" role="status">
              Replay queued: the gateway runs it again within a few seconds.
            </p>`
          : html``
      }
      <div
        id="live"
        data-refresh="/dashboard/fragments/deliveries/${encodeURIComponent(record.id)}"
      >
        ${deliveryLiveParts(record, options.csrf, options.findings)}
      </div>
      <h2>Headers kept</h2>
      ${headersTable(record.headers)}
      <h2>Payload</h2>
      ${block(JSON.stringify(record.payload, null, 2), 'No payload.')}`,
  );
}
