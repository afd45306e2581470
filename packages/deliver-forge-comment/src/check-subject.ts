/**
 * What a check is shown for, in a file of its own so that the check's entry and each forge's way
 * of showing it can all name it without importing one another.
 */
import type { Credentials, DeliveryRecord } from '@webhook-gateway/core';

/** What a check is shown for: the delivery, where it goes, and as whom. */
export interface CheckSubject {
  /** The route's target (`forge_review`, …), named in errors. */
  target: string;
  delivery: DeliveryRecord;
  /** `deliver_extra`, rendered. */
  extra: Record<string, unknown>;
  credentials?: Credentials | undefined;
  /** `platforms.webhook.extra.admin.public_url`: a status links to the delivery's page there. */
  dashboardUrl: string | undefined;
  signal: AbortSignal;
}
