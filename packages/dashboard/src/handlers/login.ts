/** `/dashboard/login` and `/dashboard/logout`: the form that trades the admin token for a session. */
import type { Context } from 'koa';
import { refuseForm, sameOrigin } from '../access.js';
import { redirect, sendHtml, sendText } from '../answers.js';
import { loginFormSchema, loginQuerySchema, queryOf, safeNextPath } from '../inputs.js';
import { loginPage } from '../pages/login-page.js';
import type { HandlerDeps } from './handler-deps.js';

export function loginHandlers({
  gate,
  log,
  refreshMs,
}: Pick<HandlerDeps, 'gate' | 'log' | 'refreshMs'>) {
  return {
    /** GET: the form; `?next=` is where to go once logged in. */
    show: (ctx: Context): void => {
      const next = loginQuerySchema.safeParse(queryOf(ctx));
      sendHtml(
        ctx,
        200,
        loginPage({ next: safeNextPath(next.data?.next), failed: false, refreshMs }),
      );
    },

    /** POST: a session cookie for the right token, the form again for a wrong one. */
    logIn: (ctx: Context): void => {
      const form = loginFormSchema.safeParse(ctx.request.body ?? {});
      if (!sameOrigin(ctx) || !form.success) {
        sendText(ctx, 400, 'Bad request: expected a login form from this dashboard\n');
        return;
      }
      const next = safeNextPath(form.data.next);
      const remote = ctx.socket.remoteAddress;
      if (!gate.isAdminToken(form.data.token)) {
        log.warn({ remote }, 'dashboard login with a wrong token');
        sendHtml(ctx, 401, loginPage({ next, failed: true, refreshMs }));
        return;
      }
      log.info({ remote }, 'dashboard login');
      gate.startSession(ctx);
      redirect(ctx, next);
    },

    logOut: (ctx: Context): void => {
      const access = gate.accessOf(ctx);
      // Without a live session there is nothing to end; clear the cookie all the same.
      if (access && !gate.checkedForm(ctx, access)) {
        refuseForm(ctx);
        return;
      }
      gate.endSession(ctx);
      redirect(ctx, '/dashboard/login');
    },
  };
}
