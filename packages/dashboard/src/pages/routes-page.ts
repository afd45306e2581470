/** `/dashboard/routes`: each route with its deliveries of the last 24 h by status. */
import type { ReconcileEvent } from '@webhook-gateway/core';
import { html, type SafeHtml } from '../html.js';
import type { RouteCounts } from '../route-counts.js';
import { page } from './layout.js';

/** What the routes page shows of one route. */
export interface RouteSummary {
  name: string;
  /** `config` for a route of config.yaml, `subscription` for one added with `webhook subscribe`. */
  kind: 'config' | 'subscription' | 'journal only';
  events: readonly string[];
  target: string | null;
  counts: RouteCounts;
}

/** The counted columns: the key of `RouteCounts`, and its heading. */
const NUMBERS = [
  ['received', 'Received'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
  ['superseded', 'Superseded'],
  ['queued', 'Queued'],
  ['running', 'Running'],
] as const;

function row(route: RouteSummary): SafeHtml {
  return html`<tr data-route="${route.name}">
    <th scope="row" data-label="Route">
      <a href="/dashboard?route=${encodeURIComponent(route.name)}">${route.name}</a>
    </th>
    <td data-label="Kind">${route.kind}</td>
    <td data-label="Events">${route.events.length > 0 ? route.events.join(', ') : 'all'}</td>
    <td data-label="Target">${route.target ?? '—'}</td>
    ${NUMBERS.map(
      ([key, label]) =>
        html`<td data-label="${label}" class="num" data-count="${key}">${route.counts[key]}</td>`,
    )}
  </tr>`;
}

/** The last reconcile pass with the forge's delivery log, when one ran. */
function reconcileSection(pass: ReconcileEvent | undefined): SafeHtml {
  if (pass === undefined) return html``;
  return html`<h2>Reconcile with the forge</h2>
    <div class="table-wrap">
      <table class="cards" id="reconcile">
        <caption>
          Last pass finished
          <time datetime="${new Date(pass.finishedAt).toISOString()}"
            >${new Date(pass.finishedAt).toISOString()}</time
          >
        </caption>
        <thead>
          <tr>
            <th scope="col">Route</th>
            <th scope="col" class="num">Listed</th>
            <th scope="col" class="num">Journaled</th>
            <th scope="col" class="num">Redelivered</th>
            <th scope="col" class="num">Failed</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          ${pass.routes.map(
            (r) =>
              html`<tr data-route="${r.route}">
                <th scope="row" data-label="Route">${r.route}</th>
                <td data-label="Listed" class="num">${r.listed}</td>
                <td data-label="Journaled" class="num">${r.journaled}</td>
                <td data-label="Redelivered" class="num">${r.redelivered}</td>
                <td data-label="Failed" class="num">${r.failed}</td>
                <td data-label="Problem">${r.error ?? '—'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** The whole page. */
export function routesPage(options: {
  routes: readonly RouteSummary[];
  complete: boolean;
  scanLimit: number;
  csrf?: string;
  refreshMs: number;
  /** The last reconcile pass, if the gateway ran one. */
  reconcile?: ReconcileEvent | undefined;
}): SafeHtml {
  return page(
    {
      title: 'Routes',
      section: 'routes',
      refreshMs: options.refreshMs,
      ...(options.csrf === undefined ? {} : { csrf: options.csrf }),
    },
    html`<h1>Routes</h1>
      ${
        options.complete
          ? html``
          : html`<p class="notice" role="status">
              More than ${options.scanLimit} deliveries arrived in the last 24 h; these counts cover
              the newest ${options.scanLimit} only.
            </p>`
      }
      <div class="table-wrap">
        <table class="cards" id="routes">
          <caption>
            Deliveries received in the last 24 h, by their status now
          </caption>
          <thead>
            <tr>
              <th scope="col">Route</th>
              <th scope="col">Kind</th>
              <th scope="col">Events</th>
              <th scope="col">Target</th>
              ${NUMBERS.map(([, label]) => html`<th scope="col" class="num">${label}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${
              options.routes.length === 0
                ? html`<tr>
                    <td colspan="${4 + NUMBERS.length}">No routes are configured.</td>
                  </tr>`
                : options.routes.map(row)
            }
          </tbody>
        </table>
      </div>
      ${reconcileSection(options.reconcile)}`,
  );
}
