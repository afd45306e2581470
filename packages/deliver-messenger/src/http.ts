/** The service-call helper every target shares (in target-kit), under the names this package uses. */
export {
  bodyExcerpt,
  callService,
  redact,
  type ServiceAnswer as HttpAnswer,
  type ServiceCallOptions as CallOptions,
  type ServiceRequest as HttpRequest,
} from '@webhook-gateway/target-kit';
