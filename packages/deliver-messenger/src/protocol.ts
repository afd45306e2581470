/** What every messenger protocol provides: pure request builders and answer classifiers. */
import type {
  CheckOutcome,
  SendOutcome,
  ServiceAnswer,
  ServiceRequest,
} from '@webhook-gateway/target-kit';

/** The canonical target names this package serves. */
export type MessengerTarget = 'messenger_a' | 'messenger_b' | 'messenger_c' | 'messenger_d';

/** Where and as whom to call a service. */
export interface Endpoint {
  /** `api_base` without a trailing slash. */
  apiBase: string;
  /** The bot token, or for messenger_d the registered number. */
  credential: string;
}

/** How one send and one credential check went (shared with every target, in target-kit). */
export type { CheckOutcome, SendOutcome };

export interface MessengerProtocol {
  target: MessengerTarget;
  /** The real service's name, for people (`Telegram`). */
  service: string;
  /** Longest message the service accepts, in characters. */
  maxLength: number;
  /** The config key of the credential under `platforms.<target>`. */
  credentialKey: 'token' | 'number';
  /** Where an operator gets the credential, for config errors. */
  credentialHelp: string;
  /** Whether the credential is a secret to keep out of messages. */
  credentialIsSecret: boolean;
  /** What the service calls a chat, for messages (`chat`, `channel`, `recipient`). */
  chatNoun: string;
  /** `threadId`: `deliver_extra.thread_id`, for services with threads (others ignore it). */
  sendRequest(endpoint: Endpoint, chatId: string, text: string, threadId?: string): ServiceRequest;
  classifySend(answer: ServiceAnswer): SendOutcome;
  checkRequest(endpoint: Endpoint): ServiceRequest;
  classifyCheck(answer: ServiceAnswer): CheckOutcome;
}
