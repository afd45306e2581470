/** The body of the dashboard's forms (log in, log out, replay), parsed by koa-body. */
import { koaBody } from 'koa-body';
import { z } from 'zod';

/** A login or replay form is a few hundred bytes; anything bigger is not one of ours. */
const MAX_FORM_BYTES = 16_384;

/** The 4xx status raw-body and inflation give a body they refuse (413: too large). */
const refusalSchema = z.object({ status: z.int().min(400).max(499) });

/** A form body that was not read: too large, compressed wrongly, cut off. */
export class UnreadableFormError extends Error {
  /** 413 for a body past `MAX_FORM_BYTES`; 400, or the reader's own 4xx, for the rest. */
  readonly status: number;

  constructor(cause: Error) {
    super(cause.message, { cause });
    this.status = refusalSchema.safeParse(cause).data?.status ?? 400;
  }
}

/**
 * Sets `ctx.request.body` to the fields of the form, each a string (a repeated field: the last
 * one). Any body is read as a form, so none is read past `MAX_FORM_BYTES` (413 from the
 * `Content-Length` already, before reading); browsers post these forms urlencoded.
 */
export const formBody = koaBody({
  json: false,
  text: false,
  multipart: false,
  urlencoded: true,
  urlencodedTypes: ['*/*'],
  formLimit: MAX_FORM_BYTES,
  // Flat fields as URLSearchParams reads them: no nesting (`a[b]`, `a.b`), no arrays.
  queryString: { allowDots: false, depth: 0, parseArrays: false, duplicates: 'last' },
  // Without this koa-body's errors would pass for the server's own (500).
  onError: (error) => {
    throw new UnreadableFormError(error);
  },
});
