/** What every messenger protocol provides: pure request builders and answer classifiers. */
import type { HttpAnswer, HttpRequest } from './http.js';
import type { SendOutcome } from '@webhook-gateway/target-kit';

/** The canonical target names this package serves. */
export type MessengerTarget = 'messenger_a' | 'messenger_b' | 'messenger_c' | 'messenger_d';

/** Where and as whom to call a service. */
export interface Endpoint {
  /** `api_base` without a trailing slash. */
  apiBase: string;
  /** The bot token, or for messenger_d the registered number. */
  credential: string;
}

/** How one send went (shared with every target, in target-kit). */
export type { SendOutcome };

/** How a credential check went. */
export type CheckOutcome =
  | { connected: true; /** Who we are, when the service says (`@my_bot`). */ identity?: string }
  | { connected: false; reason: string };

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
  sendRequest(endpoint: Endpoint, chatId: string, text: string): HttpRequest;
  classifySend(answer: HttpAnswer): SendOutcome;
  checkRequest(endpoint: Endpoint): HttpRequest;
  classifyCheck(answer: HttpAnswer): CheckOutcome;
}

/** Seconds to wait when a 429 says nothing about how long. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/** The part of a failure common to every service: 5xx is theirs, and the worker retries. */
export function serverErrorReason(service: string, status: number): string {
  return `${service} answered HTTP ${status} (a problem on its side); the delivery will be retried`;
}
