/** `/dashboard/routes`: each route with its deliveries of the last 24 h by status. */
import type { Pause, ReconcileEvent } from '@webhook-gateway/core';
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

/** What the last pause or resume form did (`?pause=`). */
type PauseResult = 'paused' | 'already-paused' | 'resumed' | 'not-paused';

const PAUSE_RESULTS: Readonly<Record<PauseResult, string>> = {
  paused: 'Paused: within about a second, no gateway starts a new delivery of it.',
  'already-paused': 'It was paused already; nothing changed.',
  resumed: 'Resumed: its queued deliveries start in order.',
  'not-paused': 'It was not paused; nothing to resume.',
};

function csrfField(csrf: string | undefined): SafeHtml {
  return csrf === undefined ? html`` : html`<input type="hidden" name="csrf" value="${csrf}" />`;
}

/** `paused since <time> — reason` */
function pausedSince(pause: Pause): SafeHtml {
  const since = new Date(pause.since).toISOString();
  return html`paused since <time datetime="${since}">${since}</time>${
      pause.reason === null ? html`` : html` — ${pause.reason}`
    }`;
}

/** The pause button of a route (null: every route), with a reason to give. */
function pauseForm(route: string | null, csrf: string | undefined): SafeHtml {
  const what = route === null ? 'every route' : route;
  return html`<form class="pause" method="post" action="/dashboard/pause">
    ${csrfField(csrf)}
    ${route === null ? html`` : html`<input type="hidden" name="route" value="${route}" />`}
    <input
      type="text"
      name="reason"
      maxlength="500"
      placeholder="reason (optional)"
      aria-label="Why pause ${what}"
    />
    <button type="submit">${route === null ? 'Pause every route' : 'Pause'}</button>
  </form>`;
}

/** The resume button of a route's pause (null: the pause of every route). */
function resumeForm(route: string | null, csrf: string | undefined): SafeHtml {
  return html`<form class="pause" method="post" action="/dashboard/resume">
    ${csrfField(csrf)}
    ${route === null ? html`` : html`<input type="hidden" name="route" value="${route}" />`}
    <button type="submit">${route === null ? 'Resume every route' : 'Resume'}</button>
  </form>`;
}

/** A route's state: its own pause with the resume button, else the pause button. */
function stateCell(name: string, pauses: readonly Pause[], csrf: string | undefined): SafeHtml {
  const own = pauses.find((pause) => pause.route === name);
  const all = pauses.find((pause) => pause.route === null);
  if (own)
    return html`<span data-state="paused">${pausedSince(own)}</span>${resumeForm(name, csrf)}`;
  return html`<span data-state="${all ? 'paused' : 'active'}"
      >${all ? html`paused with every route` : html`active`}</span
    >${pauseForm(name, csrf)}`;
}

/** Pausing every route at once, or the pause that holds them all. */
function pauseSection(pauses: readonly Pause[], csrf: string | undefined): SafeHtml {
  const all = pauses.find((pause) => pause.route === null);
  return html`<section id="pauses" aria-labelledby="pauses-heading">
    <h2 id="pauses-heading">Pause</h2>
    <p>
      A paused route still accepts and journals its deliveries; none starts until it is resumed, and
      attempts already running finish. The pause is kept in the journal, across restarts.
    </p>
    ${
      all
        ? html`<p class="notice" data-state="paused">Every route is ${pausedSince(all)}.</p>
            ${resumeForm(null, csrf)}`
        : pauseForm(null, csrf)
    }
  </section>`;
}

function row(route: RouteSummary, pauses: readonly Pause[], csrf: string | undefined): SafeHtml {
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
    <td data-label="State">${stateCell(route.name, pauses, csrf)}</td>
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
  /** The pauses in force (`Store.pauses`). */
  pauses?: readonly Pause[];
  /** What the last pause or resume form did. */
  pauseResult?: PauseResult;
}): SafeHtml {
  const pauses = options.pauses ?? [];
  return page(
    {
      title: 'Routes',
      section: 'routes',
      refreshMs: options.refreshMs,
      ...(options.csrf === undefined ? {} : { csrf: options.csrf }),
    },
    html`<h1>Routes</h1>
      ${
        options.pauseResult === undefined
          ? html``
          : html`<p class="notice" role="status" id="pause-result">
              ${PAUSE_RESULTS[options.pauseResult]}
            </p>`
      }
      ${pauseSection(pauses, options.csrf)}
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
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            ${
              options.routes.length === 0
                ? html`<tr>
                    <td colspan="${5 + NUMBERS.length}">No routes are configured.</td>
                  </tr>`
                : options.routes.map((route) => row(route, pauses, options.csrf))
            }
          </tbody>
        </table>
      </div>
      ${reconcileSection(options.reconcile)}`,
  );
}
