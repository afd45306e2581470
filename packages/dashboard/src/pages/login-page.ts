/** `/dashboard/login`: the form that trades the admin token for a session cookie. */
import { html, type SafeHtml } from '../html.js';
import { page } from './layout.js';

/** The login page; `failed` after a wrong token. */
export function loginPage(options: { next: string; failed: boolean; refreshMs: number }): SafeHtml {
  return page(
    { title: 'Log in', section: 'login', refreshMs: options.refreshMs },
    html`<h1>Log in to the dashboard</h1>
      ${
        options.failed
          ? html`<p class="error" role="alert">That is not the admin token. Try again.</p>`
          : html``
      }
      <form class="login panel" method="post" action="/dashboard/login">
        <input type="hidden" name="next" value="${options.next}" />
        <!-- For password managers: the token belongs to the "admin" account of this listener. -->
        <input type="text" name="username" value="admin" autocomplete="username" hidden />
        <label for="token">Admin token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="current-password"
          required
          autofocus
          aria-describedby="token-hint"
        />
        <p id="token-hint" class="hint">
          The value of <code>platforms.webhook.extra.admin.token</code> in the gateway's config.
        </p>
        <div><button type="submit">Log in</button></div>
      </form>`,
  );
}
