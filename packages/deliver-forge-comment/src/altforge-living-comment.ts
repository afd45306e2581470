/** A merge request's notes through `glab api` (REST v4), for the living comment. */
import { z } from 'zod';
import type { AltforgeMergeRequest } from './altforge-target.js';
import { ALTFORGE_TARGET } from './target-names.js';
import type { CliApi } from './cli-api.js';
import { CommentDeliveryError } from './errors.js';
import type { LivingCommentApi, MarkedComment } from './living-comment.js';

/** Notes per page asked for (the API's maximum). */
const NOTES_PER_PAGE = 100;

const notesPage = z.array(z.object({ id: z.number().int(), body: z.string() }));

// glab sends an `--input` body without a Content-Type unless told (the API answers 415 then).
const JSON_INPUT = ['-H', 'Content-Type: application/json', '--input', '-'];

export function altforgeLivingCommentApi(
  glab: CliApi,
  mergeRequest: AltforgeMergeRequest,
): LivingCommentApi {
  // The project's path, URL-encoded, stands for its id (`:id`) in the API.
  const notes = `projects/${encodeURIComponent(mergeRequest.path)}/merge_requests/${mergeRequest.iid}/notes`;
  return {
    place: `altforge ${mergeRequest.path}!${mergeRequest.iid}`,
    async listMarked(marker) {
      const marked: MarkedComment[] = [];
      // Oldest first (the API's default is newest first), one page at a time until a short page.
      for (let page = 1; ; page++) {
        const query = `sort=asc&order_by=created_at&per_page=${NOTES_PER_PAGE}&page=${page}`;
        const answer = notesPage.safeParse(parseJson(await glab([`${notes}?${query}`])));
        if (!answer.success) {
          throw new CommentDeliveryError(
            ALTFORGE_TARGET,
            'cli-failed',
            `glab api ${notes} answered something other than a list of notes: ${answer.error.message}`,
          );
        }
        for (const note of answer.data) {
          if (note.body.includes(marker)) marked.push({ id: String(note.id), body: note.body });
        }
        if (answer.data.length < NOTES_PER_PAGE) return marked;
      }
    },
    async edit(id, body) {
      await glab(['-X', 'PUT', `${notes}/${id}`, ...JSON_INPUT], JSON.stringify({ body }));
    },
    async post(body) {
      await glab(['-X', 'POST', notes, ...JSON_INPUT], JSON.stringify({ body }));
    },
    async remove(id) {
      await glab(['-X', 'DELETE', `${notes}/${id}`]);
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
