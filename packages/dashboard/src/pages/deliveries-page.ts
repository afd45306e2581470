/** `/dashboard`: the newest deliveries, filtered by route and status, refreshed live. */
import { pullRequestOf, type DeliveryRecord } from '@webhook-gateway/core';
import { formatDuration, formatTime, isoTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { deliveryStatuses, type DeliveriesQuery } from '../inputs.js';
import { page, statusBadge } from './layout.js';

/** The query string of a filter, `?` included (empty when nothing is filtered). */
function filterQuery(filter: DeliveriesQuery): string {
  const params = new URLSearchParams();
  if (filter.route) params.set('route', filter.route);
  if (filter.status) params.set('status', filter.status);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** How long the delivery waited before its first attempt started. */
function queuedMs(record: DeliveryRecord): number | null {
  const first = record.attemptLog[0];
  return first ? first.startedAt - record.receivedAt : null;
}

/** How long the newest attempt took (null while it runs, or before any). */
function lastAttemptMs(record: DeliveryRecord): number | null {
  const last = record.attemptLog.at(-1);
  return last && last.finishedAt !== null ? last.finishedAt - last.startedAt : null;
}

/** The table's columns; numeric ones align right. */
const COLUMNS = [
  { name: 'Received', numeric: false },
  { name: 'Route', numeric: false },
  { name: 'Pull request', numeric: false },
  { name: 'Event', numeric: false },
  { name: 'Action', numeric: false },
  { name: 'Delivery id', numeric: false },
  { name: 'Status', numeric: false },
  { name: 'Attempts', numeric: true },
  { name: 'Queued for', numeric: true },
  { name: 'Last attempt', numeric: true },
  { name: 'Tokens', numeric: true },
] as const;

type ColumnName = (typeof COLUMNS)[number]['name'];

function isNumeric(name: ColumnName): boolean {
  return COLUMNS.some((column) => column.name === name && column.numeric);
}

function cell(column: ColumnName, content: SafeHtml | string): SafeHtml {
  return isNumeric(column)
    ? html`<td data-label="${column}" class="num">${content}</td>`
    : html`<td data-label="${column}">${content}</td>`;
}

/** `owner/repo#2`, linked to the pull request's page when the payload gives one. */
function pullRequestCell(record: DeliveryRecord): SafeHtml | string {
  const ref = pullRequestOf(record.payload, record.authScheme);
  if (!ref) return '—';
  const label = `${ref.repo}#${ref.number}`;
  return ref.url ? html`<a href="${ref.url}" rel="noreferrer">${label}</a>` : label;
}

function row(record: DeliveryRecord): SafeHtml {
  const href = `/dashboard/deliveries/${encodeURIComponent(record.id)}`;
  const received = html`<time datetime="${isoTime(record.receivedAt)}"
    >${formatTime(record.receivedAt)}</time
  >`;
  const lastAttempt =
    record.status === 'running' ? 'running…' : formatDuration(lastAttemptMs(record));
  return html`<tr data-delivery-id="${record.deliveryId}">
    ${cell('Received', received)} ${cell('Route', record.route)}
    ${cell('Pull request', pullRequestCell(record))} ${cell('Event', record.event)}
    ${cell('Action', record.action ?? '—')}
    ${cell('Delivery id', html`<a href="${href}"><code>${record.deliveryId}</code></a>`)}
    ${cell('Status', statusBadge(record.status, record.partial))}
    ${cell('Attempts', `${record.attempts} / ${record.maxAttempts}`)}
    ${cell('Queued for', formatDuration(queuedMs(record)))} ${cell('Last attempt', lastAttempt)}
    ${cell('Tokens', record.agent?.usage ? String(record.agent.usage.totalTokens) : '—')}
  </tr>`;
}

/** The table body alone: what the live refresh fetches. */
export function deliveryRows(records: readonly DeliveryRecord[]): SafeHtml {
  if (records.length === 0) {
    return html`<tr>
      <td colspan="${COLUMNS.length}">No deliveries match.</td>
    </tr>`;
  }
  return html`${records.map(row)}`;
}

function option(value: string, label: string, selected: boolean): SafeHtml {
  return selected
    ? html`<option value="${value}" selected>${label}</option>`
    : html`<option value="${value}">${label}</option>`;
}

/** The whole page. */
export function deliveriesPage(options: {
  records: readonly DeliveryRecord[];
  filter: DeliveriesQuery;
  routeNames: readonly string[];
  limit: number;
  csrf?: string;
  refreshMs: number;
}): SafeHtml {
  const { filter } = options;
  const routes = [...new Set([...options.routeNames, ...(filter.route ? [filter.route] : [])])];
  const described = [
    filter.route ? `route ${filter.route}` : '',
    filter.status ? `status ${filter.status}` : '',
  ].filter((part) => part !== '');
  const caption = `The newest ${options.limit} deliveries${described.length > 0 ? ` with ${described.join(' and ')}` : ''}, newest first`;
  return page(
    {
      title: 'Deliveries',
      section: 'deliveries',
      refreshMs: options.refreshMs,
      ...(options.csrf === undefined ? {} : { csrf: options.csrf }),
    },
    html`<h1>Deliveries</h1>
      <form class="filters" method="get" action="/dashboard" aria-label="Filter deliveries">
        <label
          >Route
          <select name="route">
            ${option('', 'All routes', filter.route === undefined)}
            ${routes.map((name) => option(name, name, filter.route === name))}
          </select>
        </label>
        <label
          >Status
          <select name="status">
            ${option('', 'Any status', filter.status === undefined)}
            ${deliveryStatuses.map((status) => option(status, status, filter.status === status))}
          </select>
        </label>
        <button type="submit">Filter</button>
        ${described.length > 0 ? html`<a href="/dashboard">Clear filters</a>` : html``}
      </form>
      <p class="hint">This table refreshes every ${options.refreshMs / 1000} s.</p>
      <div class="table-wrap">
        <table class="cards" id="deliveries">
          <caption>
            ${caption}
          </caption>
          <thead>
            <tr>
              ${COLUMNS.map((column) =>
                column.numeric
                  ? html`<th scope="col" class="num">${column.name}</th>`
                  : html`<th scope="col">${column.name}</th>`,
              )}
            </tr>
          </thead>
          <tbody data-refresh="/dashboard/fragments/deliveries${filterQuery(filter)}">
            ${deliveryRows(options.records)}
          </tbody>
        </table>
      </div>`,
  );
}
