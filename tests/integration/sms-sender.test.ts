import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFileSmsSender, createSmsSender, createTwilioSender, SmsRejectedError, type SmsFileRecord, type SmsSender } from '#server/adapters/sms/index.ts';
import { startFakeSmsServer, type FakeSmsServer } from '#tests/support/fake-sms-server.ts';
import { closedPort } from '#tests/support/smtp-server.ts';

// The SMS senders (issue 18) against a fake Twilio Messages API on 127.0.0.1 and a temporary folder.
let fake: FakeSmsServer;
let sender: SmsSender;
const from = '+18435550100';

beforeAll(async () => {
  fake = await startFakeSmsServer();
  sender = createTwilioSender({ apiUrl: fake.url, accountSid: fake.accountSid, authToken: fake.authToken, from, timeoutMs: 5_000 });
});
afterAll(async () => {
  await fake?.close();
});
afterEach(() => {
  fake.messages.length = 0;
  fake.requests.length = 0;
});

async function refusal(promise: Promise<unknown>): Promise<SmsRejectedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SmsRejectedError);
  return error as SmsRejectedError;
}

describe('the Twilio-compatible sender', () => {
  it("sends To, From and Body form-encoded with Basic auth, and answers the provider's sid", async () => {
    const body = 'Hi Dana & Co: your visit is confirmed for Tue 9-11 AM. 100% = done? Reply C to confirm.\nThanks 🙂';
    const result = await sender.send({ to: '+18435550142', body });

    expect(result.providerId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(fake.messages).toEqual([{ sid: result.providerId, to: '+18435550142', from, body, receivedAt: expect.any(Date) }]);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', url: `/2010-04-01/Accounts/${fake.accountSid}/Messages.json` });
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(request!.body as string))).toEqual({ To: '+18435550142', From: from, Body: body });
  });

  it('accepts an API URL written with a trailing slash', async () => {
    const slashed = createTwilioSender({ apiUrl: `${fake.url}/`, accountSid: fake.accountSid, authToken: fake.authToken, from, timeoutMs: 5_000 });
    await slashed.send({ to: '+18435550142', body: 'Hello' });
    expect(fake.requests[0]!.url).toBe(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`);
  });

  it.each([
    { code: 21614, status: 400, what: 'not a mobile number' },
    { code: 21408, status: 400, what: 'region not enabled' },
    { code: 21612, status: 400, what: 'cannot be routed' },
  ])('a number that cannot take texts ($code, $what) is permanent and unreachable', async ({ code, status }) => {
    fake.failNext(1, { status, code, message: "The 'To' phone number: +18435550142, is not currently reachable using the 'From' phone number" });
    const error = await refusal(sender.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ code, httpStatus: status, permanent: true, recipientUnreachable: true });
    expect(error.message).toContain(`code ${code}`);
    // The provider's words are kept, the recipient's number is not.
    expect(error.message).toContain('is not currently reachable');
    expect(error.message).not.toMatch(/843\D?555\D?0142/);
  });

  it('an invalid To number (21211, refused by the fake itself) is permanent and unreachable', async () => {
    const error = await refusal(sender.send({ to: '+1843', body: 'Hello' }));
    expect(error.details).toEqual({ code: 21211, httpStatus: 400, permanent: true, recipientUnreachable: true });
    expect(fake.messages).toHaveLength(0);
  });

  it('a recipient who replied STOP (21610) is permanent but the number is not unreachable', async () => {
    fake.failNext(1, { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
    const error = await refusal(sender.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ code: 21610, httpStatus: 400, permanent: true, recipientUnreachable: false });
  });

  it('another refusal of the message itself (a body too long, 21617) is permanent, the number not unreachable', async () => {
    fake.failNext(1, { status: 400, code: 21617, message: 'The concatenated message body exceeds the 1600 character limit.' });
    const error = await refusal(sender.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ code: 21617, httpStatus: 400, permanent: true, recipientUnreachable: false });
  });

  it.each([
    { status: 429, code: 20429 },
    { status: 500, code: 20500 },
    { status: 503, code: 20503 },
  ])('HTTP $status is retried (not permanent)', async ({ status, code }) => {
    fake.failNext(1, { status, code });
    const error = await refusal(sender.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ code, httpStatus: status, permanent: false, recipientUnreachable: false });
  });

  it("a proxy's error page that is not JSON is judged on its status", async () => {
    fake.failNext(1, { status: 502, text: '<html><body>Bad gateway</body></html>' });
    const error = await refusal(sender.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ code: undefined, httpStatus: 502, permanent: false, recipientUnreachable: false });
    expect(error.message).toBe('The SMS provider refused the message (HTTP 502)');
  });

  it('after failures, the next request goes through', async () => {
    fake.failNext(2, { status: 503, code: 20503 });
    await refusal(sender.send({ to: '+18435550142', body: 'one' }));
    await refusal(sender.send({ to: '+18435550142', body: 'two' }));
    await expect(sender.send({ to: '+18435550142', body: 'three' })).resolves.toMatchObject({ providerId: expect.stringMatching(/^SM/) });
    expect(fake.messages.map((message) => message.body)).toEqual(['three']);
  });

  it('a wrong auth token (401, 20003) is retried, and no error message holds the token', async () => {
    const wrongToken = 'wrong-token-that-must-not-leak';
    const wrong = createTwilioSender({ apiUrl: fake.url, accountSid: fake.accountSid, authToken: wrongToken, from, timeoutMs: 5_000 });
    const error = await refusal(wrong.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ code: 20003, httpStatus: 401, permanent: false, recipientUnreachable: false });
    expect(`${error.message} ${error.stack} ${JSON.stringify(error.details)}`).not.toContain(wrongToken);
    expect(error.message).not.toContain(fake.accountSid);
  });

  it('an auth token echoed by the provider is removed from the message', async () => {
    fake.failNext(1, { status: 400, code: 21606, message: `From is not valid for the account using token ${fake.authToken}` });
    const error = await refusal(sender.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.message).not.toContain(fake.authToken);
    expect(error.message).toContain('[redacted]');
  });

  it('no answer within the timeout is a failure to retry', async () => {
    const quick = createTwilioSender({ apiUrl: fake.url, accountSid: fake.accountSid, authToken: fake.authToken, from, timeoutMs: 200 });
    fake.hangNext(1);
    const error = await refusal(quick.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ permanent: false, recipientUnreachable: false });
    expect(error.message).toBe('The SMS provider did not answer within 200 ms');
    expect(fake.requests).toHaveLength(1);
  });

  it('a provider that cannot be reached is a failure to retry', async () => {
    const port = await closedPort();
    const unreachable = createTwilioSender({ apiUrl: `http://127.0.0.1:${port}`, accountSid: fake.accountSid, authToken: fake.authToken, from, timeoutMs: 2_000 });
    const error = await refusal(unreachable.send({ to: '+18435550142', body: 'Hello' }));
    expect(error.details).toEqual({ permanent: false, recipientUnreachable: false });
    expect(error.message).toBe('The SMS provider could not be reached (ECONNREFUSED)');
    expect(error.message).not.toContain(String(port));
  });
});

describe('the file sender (no SMS_API_URL)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hvac-sms-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('writes each text as its own JSON file, readable by the owner only, in a folder it creates', async () => {
    const directory = path.join(dataDir, 'outbox', 'sms');
    const files = createFileSmsSender(directory);
    expect(files.kind).toBe('file');
    const before = Date.now();
    const first = await files.send({ to: '+18435550142', body: 'Your visit is confirmed.' });
    const second = await files.send({ to: '+18435550143', body: 'Your visit is confirmed.' });

    expect(first.providerId).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{12}\.json$/);
    expect(second.providerId).not.toBe(first.providerId);
    expect((await fs.readdir(directory)).sort()).toEqual([first.providerId, second.providerId].sort());

    const record = JSON.parse(await fs.readFile(path.join(directory, first.providerId), 'utf8')) as SmsFileRecord;
    expect(record).toEqual({ to: '+18435550142', from: 'file', body: 'Your visit is confirmed.', createdAt: expect.any(String) });
    expect(Date.parse(record.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await fs.stat(path.join(directory, first.providerId))).mode & 0o777).toBe(0o600);
    expect((await fs.stat(directory)).mode & 0o777).toBe(0o700);
  });
});

describe('createSmsSender', () => {
  it('uses the API when it is configured', async () => {
    const configured = createSmsSender({ api: { url: fake.url, accountSid: fake.accountSid, authToken: fake.authToken, from }, timeoutMs: 5_000, fileDir: '/nonexistent' });
    expect(configured.kind).toBe('api');
    const result = await configured.send({ to: '+18435550142', body: 'through the API' });
    expect(fake.messages).toEqual([expect.objectContaining({ sid: result.providerId, body: 'through the API' })]);
  });

  it('writes files otherwise', async () => {
    const fileDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hvac-sms-pick-'));
    try {
      const configured = createSmsSender({ api: undefined, fileDir });
      expect(configured.kind).toBe('file');
      const result = await configured.send({ to: '+18435550142', body: 'to a file' });
      expect(await fs.readdir(fileDir)).toEqual([result.providerId]);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await fs.rm(fileDir, { recursive: true, force: true });
    }
  });
});
