import { randomBytes } from 'node:crypto';
import { twilioSignature } from '#server/adapters/sms/twilio-signature.ts';
import { startFakeHttpServer, type FakeAnswer, type RecordedRequest } from './fake-http-server.ts';

/** A text the fake provider accepted. */
export type FakeSmsMessage = { sid: string; to: string; from: string; body: string; receivedAt: Date };

/** How the next requests fail: Twilio's error JSON with `code`, or `text` for a body that is not JSON (a proxy's page). */
export type FakeSmsFailure = { status: number; code?: number; message?: string; text?: string };

const e164 = /^\+[1-9]\d{7,14}$/;

function twilioError(status: number, code: number, message: string): FakeAnswer {
  return { status, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

/** Twilio's message ids: "SM" and 32 hex digits. */
export function fakeMessageSid(): string {
  return `SM${randomBytes(16).toString('hex')}`;
}

/**
 * A real HTTP server on 127.0.0.1 that answers like Twilio's Messages API
 * (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`): it checks the Basic credentials
 * (401, code 20003), the form fields (To 21604 / 21211 when not E.164, From 21603, Body 21602),
 * records each accepted text in `messages` and answers 201 with Twilio's JSON (`sid` "SM" + 32 hex,
 * status "queued"). `failNext(n, failure)` makes the next n requests fail (after the checks above
 * pass); `hangNext(n)` makes them never answer (timeouts). Every request, accepted or not, is in
 * `requests` (the raw form text as its body).
 */
export async function startFakeSmsServer(options: { accountSid?: string; authToken?: string } = {}) {
  const accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const messages: FakeSmsMessage[] = [];
  const pending: Array<FakeSmsFailure | 'hang'> = [];
  const messagesPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;

  const answer = (request: RecordedRequest): FakeAnswer => {
    const path = request.url.split('?')[0];
    if (request.method !== 'POST' || !path?.startsWith('/2010-04-01/Accounts/')) {
      return twilioError(404, 20404, `The requested resource ${path} was not found`);
    }
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected || path !== messagesPath) return twilioError(401, 20003, 'Authenticate');
    if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return twilioError(400, 20001, 'The request body must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
    if (!e164.test(to)) return twilioError(400, 21211, `Invalid 'To' Phone Number: ${to}`);
    if (!from) return twilioError(400, 21603, "A 'From' phone number is required.");
    if (!body) return twilioError(400, 21602, 'Message body is required.');

    const next = pending.shift();
    if (next === 'hang') return 'hang';
    if (next) {
      if (next.text !== undefined) return { status: next.status, text: next.text };
      return twilioError(next.status, next.code ?? (next.status >= 500 ? 20500 : 20001), next.message ?? 'Refused by the test');
    }

    const message: FakeSmsMessage = { sid: fakeMessageSid(), to, from, body, receivedAt: new Date() };
    messages.push(message);
    const date = message.receivedAt.toUTCString().replace('GMT', '+0000');
    return {
      status: 201,
      json: {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body,
        date_created: date,
        date_sent: null,
        date_updated: date,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: String(Math.max(1, Math.ceil(body.length / 160))),
        price: null,
        price_unit: 'USD',
        sid: message.sid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
      },
    };
  };

  const server = await startFakeHttpServer(answer);
  return {
    url: server.url,
    accountSid,
    authToken,
    messages,
    requests: server.requests,
    /** The next `count` requests that pass the checks fail this way. */
    failNext(count: number, failure: FakeSmsFailure) {
      for (let index = 0; index < count; index += 1) pending.push(failure);
    },
    /** The next `count` requests that pass the checks are never answered. */
    hangNext(count = 1) {
      for (let index = 0; index < count; index += 1) pending.push('hang');
    },
    /** The environment that points the server at this fake. */
    env(from = '+18435550100'): Record<string, string> {
      return { SMS_API_URL: server.url, SMS_ACCOUNT_SID: accountSid, SMS_AUTH_TOKEN: authToken, SMS_FROM: from };
    },
    close: server.close,
  };
}

export type FakeSmsServer = Awaited<ReturnType<typeof startFakeSmsServer>>;

/**
 * The parameters Twilio posts to a messaging webhook for one inbound text (the usual set; Twilio
 * may add more at any time, which is why the signature covers every parameter received).
 */
export function inboundSmsParams(input: { from: string; to: string; body: string; accountSid?: string }): Record<string, string> {
  const sid = fakeMessageSid();
  return {
    ToCountry: 'US',
    ToState: 'SC',
    SmsMessageSid: sid,
    NumMedia: '0',
    ToCity: 'BLUFFTON',
    FromZip: '29910',
    SmsSid: sid,
    FromState: 'SC',
    SmsStatus: 'received',
    FromCity: 'BLUFFTON',
    Body: input.body,
    FromCountry: 'US',
    To: input.to,
    ToZip: '29910',
    NumSegments: '1',
    MessageSid: sid,
    AccountSid: input.accountSid ?? `AC${'0'.repeat(32)}`,
    From: input.from,
    ApiVersion: '2010-04-01',
  };
}

/**
 * What Twilio sends to an inbound webhook: the form body and the X-Twilio-Signature header computed
 * over `url` (the public URL configured at the provider, COMPANY_SITE_URL + the path) and every
 * parameter. `path` is the URL's path and query, for `app.inject({ method: 'POST', url: path, headers, payload: body })`.
 */
export function signedInboundRequest(input: { authToken: string; url: string; params: Record<string, string> }) {
  const target = new URL(input.url);
  return {
    path: `${target.pathname}${target.search}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(input.authToken, input.url, input.params),
      'user-agent': 'TwilioProxy/1.1',
    },
    body: new URLSearchParams(input.params).toString(),
  };
}
