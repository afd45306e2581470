/**
 * `/dashboard/queue`: the attempts running now and each queued delivery's place in its route's
 * queue, its estimated start and why it waits; the live refresh reloads both tables.
 */
import {
  standingText,
  waitReasonText,
  type QueueStanding,
  type StandingsRead,
} from '@webhook-gateway/core';
import { formatDuration, formatTime, isoTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { page } from './layout.js';

function deliveryLink(id: string, label: string): SafeHtml {
  return html`<a href="/dashboard/deliveries/${encodeURIComponent(id)}"><code>${label}</code></a>`;
}

/** `owner/repo#7` from an order key (`route|owner/repo|7`), or an em dash. */
function pullRequestOf(orderKey: string | null): string {
  if (orderKey === null) return '—';
  const [, repo, number] = orderKey.split('|');
  return repo === undefined || number === undefined ? '—' : `${repo}#${number}`;
}

function runningTable(read: StandingsRead): SafeHtml {
  const rows =
    read.running.length === 0
      ? html`<tr>
          <td colspan="4">Nothing is running.</td>
        </tr>`
      : html`${read.running.map(
          (row) =>
            html`<tr data-running-id="${row.id}">
              <td data-label="Delivery">${deliveryLink(row.id, row.id)}</td>
              <td data-label="Route">${row.route}</td>
              <td data-label="Pull request">${pullRequestOf(row.orderKey)}</td>
              <td data-label="Running for" class="num">
                ${formatDuration(row.startedAt === null ? null : read.now - row.startedAt)}
              </td>
            </tr>`,
        )}`;
  return html`<table class="cards" id="running">
    <caption>
      Attempts running now
    </caption>
    <thead>
      <tr>
        <th scope="col">Delivery</th>
        <th scope="col">Route</th>
        <th scope="col">Pull request</th>
        <th scope="col" class="num">Running for</th>
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

function reasonsCell(standing: QueueStanding): SafeHtml | string {
  if (standing.reasons.length === 0) return 'starting now';
  return html`${standing.reasons.map((reason) => html`<div>${waitReasonText(reason)}</div>`)}`;
}

function queuedTable(read: StandingsRead): SafeHtml {
  const rows = read.queued.flatMap((row) => {
    const standing = read.standings.get(row.id);
    if (!standing) return [];
    const start = standing.estimatedStartAt;
    return [
      html`<tr data-queued-id="${row.id}" data-position="${standing.position}">
        <td data-label="Delivery">${deliveryLink(row.id, row.deliveryId)}</td>
        <td data-label="Route">${row.route}</td>
        <td data-label="Pull request">${pullRequestOf(row.orderKey)}</td>
        <td data-label="Place">${standingText(standing, read.now)}</td>
        <td data-label="Expected start">
          ${
            start === undefined
              ? '—'
              : html`<time datetime="${isoTime(start)}">${formatTime(start)}</time>`
          }
        </td>
        <td data-label="Waiting for">${reasonsCell(standing)}</td>
      </tr>`,
    ];
  });
  return html`<table class="cards" id="queued">
    <caption>
      Queued deliveries, in order of arrival; the place is within the route's queue
    </caption>
    <thead>
      <tr>
        <th scope="col">Delivery id</th>
        <th scope="col">Route</th>
        <th scope="col">Pull request</th>
        <th scope="col">Place</th>
        <th scope="col">Expected start</th>
        <th scope="col">Waiting for</th>
      </tr>
    </thead>
    <tbody>
      ${
        rows.length === 0
          ? html`<tr>
              <td colspan="6">Nothing is queued.</td>
            </tr>`
          : html`${rows}`
      }
    </tbody>
  </table>`;
}

/** Both tables: what the live refresh fetches (`/dashboard/fragments/queue`). */
export function queueTables(read: StandingsRead): SafeHtml {
  return html`<div class="table-wrap">${runningTable(read)}</div>
    <div class="table-wrap">${queuedTable(read)}</div>`;
}

/** The whole page. */
export function queuePage(options: {
  read: StandingsRead;
  csrf?: string;
  refreshMs: number;
}): SafeHtml {
  return page(
    {
      title: 'Queue',
      section: 'queue',
      refreshMs: options.refreshMs,
      ...(options.csrf === undefined ? {} : { csrf: options.csrf }),
    },
    html`<h1>Queue</h1>
      <p class="hint">
        These tables refresh every ${options.refreshMs / 1000} s. The expected start comes from each
        route's recent run times.
      </p>
      <div id="queue" data-refresh="/dashboard/fragments/queue">${queueTables(options.read)}</div>`,
  );
}
