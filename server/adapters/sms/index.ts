import { createFileSmsSender } from './file-sender.ts';
import type { SmsSender } from './sms-sender.ts';
import { createTwilioSender } from './twilio-sender.ts';

export { SmsRejectedError, type SmsMessage, type SmsSendResult, type SmsSender } from './sms-sender.ts';
export { createFileSmsSender, type SmsFileRecord } from './file-sender.ts';
export { createTwilioSender, classifyTwilioRefusal, twilioUnreachableCodes, twilioUnsubscribedCode, type TwilioSenderOptions } from './twilio-sender.ts';
export { twilioSignature, verifyTwilioSignature, twilioSignatureHeader } from './twilio-signature.ts';
export { classifyInboundText, twimlMessage, type InboundTextKind } from './inbound-keywords.ts';

/** `{ ...config.sms, fileDir: path.join(config.dataDir, 'outbox', 'sms') }` */
export type SmsSenderConfig = {
  /** The Twilio-compatible API (SMS_API_URL and its companions); unset, texts are files. */
  api?: { url: string; accountSid: string; authToken: string; from: string } | undefined;
  /** SMS_TIMEOUT_MS: the longest wait for the API's answer (default 10 s). */
  timeoutMs?: number;
  /** Where the file outbox writes: DATA_DIR/outbox/sms. */
  fileDir: string;
};

export const defaultSmsTimeoutMs = 10_000;

/** The configured sender: the API when SMS_API_URL (and its companions) are set, else the file outbox. */
export function createSmsSender(config: SmsSenderConfig): SmsSender {
  if (config.api) {
    const { url, accountSid, authToken, from } = config.api;
    return createTwilioSender({ apiUrl: url, accountSid, authToken, from, timeoutMs: config.timeoutMs ?? defaultSmsTimeoutMs });
  }
  return createFileSmsSender(config.fileDir);
}
