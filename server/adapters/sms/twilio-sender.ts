import { SmsRejectedError, type SmsSender } from './sms-sender.ts';

export type TwilioSenderOptions = {
  /** The API's origin, e.g. https://api.twilio.com (no trailing path; a trailing slash is ignored). */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** The sending number, E.164. */
  from: string;
  timeoutMs: number;
};

/**
 * Twilio error codes (https://www.twilio.com/docs/api/errors) that say the recipient's number
 * cannot take texts: sending to it again fails the same way, so the caller marks the number.
 * 21211 invalid 'To' number; 21614 'To' is not a mobile number; 21408 no permission to send to the
 * region; 21612 the 'To' number cannot be reached (no route).
 */
export const twilioUnreachableCodes: ReadonlySet<number> = new Set([21211, 21614, 21408, 21612]);
/** 21610: the recipient replied STOP to this sender; Twilio refuses until they reply START. */
export const twilioUnsubscribedCode = 21610;

/** Error JSON of Twilio's REST API: `{ code, message, more_info, status }`. */
type TwilioErrorBody = { code?: unknown; message?: unknown; more_info?: unknown; status?: unknown };

function networkCode(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : null;
}

/**
 * Whether a refusal is permanent (the same request would fail the same way), from the HTTP status
 * and Twilio's code. Rate limits (429), the provider's own failures (5xx), a request timeout (408)
 * and refused credentials (401/403: the configuration is fixed, not the message) are retried; any
 * other 4xx is the message's own fault (a bad number, an unsubscribed recipient, a body Twilio
 * refuses) and is not.
 */
export function classifyTwilioRefusal(httpStatus: number, code: number | undefined): { permanent: boolean; recipientUnreachable: boolean } {
  if (code !== undefined && twilioUnreachableCodes.has(code)) return { permanent: true, recipientUnreachable: true };
  if (code === twilioUnsubscribedCode) return { permanent: true, recipientUnreachable: false };
  const isTransient = httpStatus === 429 || httpStatus >= 500 || httpStatus === 401 || httpStatus === 403 || httpStatus === 408;
  return { permanent: !isTransient && httpStatus >= 400 && httpStatus < 500, recipientUnreachable: false };
}

/**
 * The provider's explanation, made safe to store and log: phone numbers in it (Twilio's messages
 * quote the 'To' number) are masked, and the auth token, should it ever be echoed, removed.
 */
function safeProviderMessage(message: unknown, authToken: string): string | null {
  if (typeof message !== 'string' || message.trim() === '') return null;
  let text = message.trim().slice(0, 300);
  if (authToken) text = text.split(authToken).join('[redacted]');
  return text.replace(/\+?\d[\d\s().-]{6,}\d/g, '[number]');
}

/**
 * Texts through a Twilio-compatible REST API: `POST {apiUrl}/2010-04-01/Accounts/{sid}/Messages.json`,
 * a form-encoded body (To, From, Body) and HTTP Basic auth (account SID : auth token), as Twilio's
 * own SDK sends it. A 2xx answer's `sid` is the provider id. Every failure is an SmsRejectedError
 * (see classifyTwilioRefusal); a timeout or a lost connection is not permanent, although the
 * provider may have taken the message (texts are at least once, decision 021-a). No error message
 * contains the auth token, the request's URL or the recipient's number.
 */
export function createTwilioSender(options: TwilioSenderOptions): SmsSender {
  const endpoint = `${options.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    kind: 'api',
    send: async (message) => {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ To: message.to, From: options.from, Body: message.body }).toString(),
          signal: timeout,
        });
        text = await response.text();
      } catch (error) {
        if (timeout.aborted) {
          throw new SmsRejectedError(`The SMS provider did not answer within ${options.timeoutMs} ms`, { permanent: false, recipientUnreachable: false });
        }
        const code = networkCode(error);
        throw new SmsRejectedError(`The SMS provider could not be reached${code ? ` (${code})` : ''}`, { permanent: false, recipientUnreachable: false });
      }
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON (a proxy's error page): judged on the status alone.
      }
      if (response.ok) {
        const sid = (json as { sid?: unknown } | null)?.sid;
        // A 2xx is an accepted message even without a readable sid: sending it again would send it twice.
        return { providerId: typeof sid === 'string' && sid !== '' ? sid : 'unknown' };
      }
      const body = (json !== null && typeof json === 'object' ? json : {}) as TwilioErrorBody;
      const code = typeof body.code === 'number' && Number.isInteger(body.code) ? body.code : undefined;
      const explanation = safeProviderMessage(body.message, options.authToken);
      const summary = `The SMS provider refused the message (HTTP ${response.status}${code === undefined ? '' : `, code ${code}`})${explanation ? `: ${explanation}` : ''}`;
      throw new SmsRejectedError(summary, { code, httpStatus: response.status, ...classifyTwilioRefusal(response.status, code) });
    },
  };
}
