import type { SmsSender } from '#server/adapters/sms/sms-sender.ts';

/**
 * Stand-in until the SMS adapter (server/adapters/sms/index.ts: the Twilio-compatible API or
 * files under DATA_DIR/outbox/sms) is wired in app.ts: every text fails, to be retried, so none
 * is lost or marked sent. Texts are only planned for customers who opted in to them.
 */
export const unconfiguredSmsSender: SmsSender = {
  kind: 'file',
  send: () => Promise.reject(new Error('no SMS sender is configured yet')),
};
