/** `/dashboard/routes`: each route with its deliveries of the last 24 h by status. */
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

/** The whole page. */
export function routesPage(options: {
  routes: readonly RouteSummary[];
  complete: boolean;
  scanLimit: number;
  csrf?: string;
  refreshMs: number;
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
      </div>`,
  );
}
