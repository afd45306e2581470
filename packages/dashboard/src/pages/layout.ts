/** The frame of every dashboard page: head, skip link, navigation, log-out button. */
import { html, type SafeHtml } from '../html.js';

type Section = 'deliveries' | 'queue' | 'overview' | 'routes' | 'login';

export interface PageFrame {
  title: string;
  section: Section;
  /** The session's CSRF token; without one (bearer access, login page) there is no log-out form. */
  csrf?: string;
  refreshMs: number;
}

function navLink(href: string, label: string, current: boolean): SafeHtml {
  return current
    ? html`<a href="${href}" aria-current="page">${label}</a>`
    : html`<a href="${href}">${label}</a>`;
}

/** A whole HTML document around `content`. */
export function page(frame: PageFrame, content: SafeHtml): SafeHtml {
  const nav =
    frame.section === 'login'
      ? html``
      : html`<nav aria-label="Main">
            ${navLink('/dashboard', 'Deliveries', frame.section === 'deliveries')}
            ${navLink('/dashboard/queue', 'Queue', frame.section === 'queue')}
            ${navLink('/dashboard/overview', 'Overview', frame.section === 'overview')}
            ${navLink('/dashboard/routes', 'Routes', frame.section === 'routes')}
          </nav>
          ${
            frame.csrf === undefined
              ? html``
              : html`<form method="post" action="/dashboard/logout">
                  <input type="hidden" name="csrf" value="${frame.csrf}" />
                  <button type="submit" class="quiet">Log out</button>
                </form>`
          }`;
  return html`<!doctype html>
    <html lang="en" data-refresh-ms="${frame.refreshMs}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${frame.title} · webhook-gateway</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
        <script src="/dashboard/assets/dashboard.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <span class="brand">webhook-gateway</span>
          ${nav}
        </header>
        <main id="main" tabindex="-1">${content}</main>
      </body>
    </html> `;
}

/** A delivery status as a labelled badge (the word is there, not only the colour). */
export function statusBadge(status: string, partial = false): SafeHtml {
  // A partial review is delivered, and says it is incomplete.
  const label = partial ? `${status} (partial)` : status;
  return html`<span class="status status-${status}">${label}</span>`;
}
