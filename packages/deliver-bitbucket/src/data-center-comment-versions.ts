/**
 * Data Center changes a comment (edits, resolves or deletes it) only at its current `version`:
 * the version the last listing read is used, and after a `409` (someone changed the comment
 * since) the comment is read again and the change made once more, at the version it has now.
 */
import type { DataCenterComment } from './data-center-api.js';
import { BitbucketApiError } from './rest-client.js';

/** A change at `version`; `current` is the comment as read again after a `409`. */
type VersionedChange = (version: number, current?: DataCenterComment) => Promise<void>;

/** The versions of the comments read, and changes made at them. */
export function commentVersions(readComment: (commentId: string) => Promise<DataCenterComment>) {
  const known = new Map<string, number>();
  return {
    /** The version a listing read, or a change left the comment at. */
    remember(commentId: string, version: number) {
      known.set(commentId, version);
    },
    /** Runs `change` at the comment's known version; after a 409, at the version it has now. */
    async change(commentId: string, change: VersionedChange): Promise<void> {
      const version = known.get(commentId);
      if (version !== undefined) {
        try {
          return await change(version);
        } catch (error) {
          if (!(error instanceof BitbucketApiError) || error.status !== 409) throw error;
        }
      }
      const current = await readComment(commentId);
      await change(current.version, current);
    },
  };
}
