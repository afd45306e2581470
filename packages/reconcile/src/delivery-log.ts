/** A forge hook's log of the deliveries it attempted, as reconcile reads it. */

/** One attempt in the forge's log. */
export interface LoggedDelivery {
  /** The forge's id of this attempt: what a redelivery names. */
  id: string;
  /** The id the gateway journals it under (`X-GitHub-Delivery`, `Idempotency-Key`). */
  guid: string;
  /** When the forge attempted it (ms). */
  deliveredAt: number;
  /** The gateway's HTTP answer; 0 when there was none (refused, timed out). */
  statusCode: number;
  event: string;
}

export interface DeliveryLog {
  /** The hook as the forge's API names it (`repos/octo/repo/hooks/12`), for messages and cursors. */
  readonly hook: string;
  /** The hook's attempts back to `sinceMs`, newest first. Throws a `ReconcileFailure`. */
  list(sinceMs: number): Promise<LoggedDelivery[]>;
  /** Asks the forge to send `delivery` again, signed as before. Throws a `ReconcileFailure`. */
  redeliver(delivery: LoggedDelivery): Promise<void>;
}

/** At most this many pages per pass: a hook's log is bounded by the forge's retention anyway. */
export const MAX_PAGES = 200;
