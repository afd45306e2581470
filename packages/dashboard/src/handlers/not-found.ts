/** A path the listener does not serve: a 404 page for who holds the token. */
import type { Context } from 'koa';
import { sendHtml } from '../answers.js';
import { html } from '../html.js';
import { page } from '../pages/layout.js';
import type { HandlerDeps } from './handler-deps.js';

export function notFoundHandler({
  gate,
  refreshMs,
}: Pick<HandlerDeps, 'gate' | 'refreshMs'>): (ctx: Context) => void {
  return (ctx) => {
    const access = gate.accessOf(ctx);
    if (!access) return gate.denied(ctx, ctx.path.startsWith('/dashboard') ? 'page' : 'api');
    sendHtml(
      ctx,
      404,
      page(
        { title: 'Not found', section: 'deliveries', refreshMs, ...gate.csrfOf(access) },
        html`<h1>Not found</h1>
          <p><a href="/dashboard">Back to the deliveries</a></p>`,
      ),
    );
  };
}
