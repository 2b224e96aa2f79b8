/**
 * Text messages (issue 18): the interface the messaging module sends through. Two senders
 * implement it: a Twilio-compatible REST API (SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN,
 * SMS_FROM), and, when those are unset, files under DATA_DIR/outbox/sms so a new install works
 * offline. Retries are the caller's business, not the sender's.
 */

export type SmsMessage = {
  /** E.164, e.g. +18435550142 (shared/phone.ts normalises what customers type). */
  to: string;
  body: string;
};

export type SmsSendResult = {
  /** The provider's id of the message (Twilio's `sid`; the file's name in file mode). */
  providerId: string;
};

export type SmsSender = {
  kind: 'api' | 'file';
  send: (message: SmsMessage) => Promise<SmsSendResult>;
};

/**
 * The provider refused the message. `permanent`: sending it again would fail the same way (a
 * number that cannot take texts, an unsubscribed recipient): the caller marks it and does not
 * retry. Otherwise (rate limits, the provider's 5xx, a network failure) it retries with backoff.
 */
export class SmsRejectedError extends Error {
  constructor(
    message: string,
    readonly details: {
      /** The provider's error code (Twilio: 21211 invalid number, 21614 not a mobile, 21610 unsubscribed, ...). */
      code?: number;
      httpStatus?: number;
      permanent: boolean;
      /** The number itself cannot receive texts (mark the customer's number, never retry it). */
      recipientUnreachable: boolean;
    },
  ) {
    super(message);
    this.name = 'SmsRejectedError';
  }
}
