/** Calls to Twilio through the service-call helper every target shares (in target-kit). */
import {
  callService,
  type ServiceAnswer,
  type ServiceCallOptions,
  type ServiceRequest,
} from '@webhook-gateway/target-kit';

export {
  bodyExcerpt,
  redact,
  type ServiceAnswer as HttpAnswer,
  type ServiceRequest as HttpRequest,
} from '@webhook-gateway/target-kit';

export type CallOptions = Omit<ServiceCallOptions, 'service'>;

/** One call to Twilio: bounded in time, its answer parsed, no secret in errors. */
export function callTwilio(request: ServiceRequest, options: CallOptions): Promise<ServiceAnswer> {
  return callService(request, { ...options, service: 'Twilio' });
}
