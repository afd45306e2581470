/**
 * POST `/dashboard/pause` and `/dashboard/resume`: the routes page's buttons. A pause is kept in
 * the journal, as `webhook-gateway pause` keeps it, so every gateway on the store reads it within
 * about a second.
 */
import { refuseForm, type AccessHandler } from '../access.js';
import { redirect } from '../answers.js';
import { BadRequestError, pauseFormSchema, resumeFormSchema } from '../inputs.js';
import { knownRouteNames } from '../route-summaries.js';
import type { HandlerDeps } from './handler-deps.js';

type Deps = Pick<HandlerDeps, 'gate' | 'store' | 'config' | 'log' | 'now'>;

export function pauseHandlers({ gate, store, config, log, now }: Deps): {
  pause: AccessHandler;
  resume: AccessHandler;
} {
  return {
    async pause(ctx, access) {
      if (!gate.checkedForm(ctx, access)) {
        refuseForm(ctx);
        return;
      }
      const form = pauseFormSchema.safeParse(ctx.request.body ?? {});
      if (!form.success) throw new BadRequestError('the pause form is malformed');
      const route = form.data.route ?? null;
      // A route nobody knows is refused, so a stale page never leaves the real route running.
      if (route !== null && !(await knownRouteNames(config, store)).includes(route)) {
        throw new BadRequestError(`no route named ${route}`);
      }
      const result = await store.pause(route, form.data.reason ?? null, now());
      if (result.added) {
        log.info(
          { route: route ?? '*', reason: result.pause.reason, via: access.via },
          'pause requested from the dashboard',
        );
      }
      redirect(ctx, `/dashboard/routes?pause=${result.added ? 'paused' : 'already-paused'}`);
    },
    async resume(ctx, access) {
      if (!gate.checkedForm(ctx, access)) {
        refuseForm(ctx);
        return;
      }
      const form = resumeFormSchema.safeParse(ctx.request.body ?? {});
      if (!form.success) throw new BadRequestError('the resume form is malformed');
      const route = form.data.route ?? null;
      const lifted = await store.resume(route);
      if (lifted) {
        log.info({ route: route ?? '*', via: access.via }, 'resume requested from the dashboard');
      }
      redirect(ctx, `/dashboard/routes?pause=${lifted ? 'resumed' : 'not-paused'}`);
    },
  };
}
