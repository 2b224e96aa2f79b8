import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompanySettingsResponse } from '#shared/company-settings.ts';
import type { IntegrationsResponse, IntegrationTestResult } from '#shared/integrations.ts';
import { createRuleBasedResponder } from '#server/adapters/chat/rule-based-responder.ts';
import { createFileSender } from '#server/adapters/email/email-sender.ts';
import { createIntegrationsService, tileAt, tileUrlFor } from '#server/modules/settings/integrations.service.ts';
import { startFakeHttpServer } from '#tests/support/fake-http-server.ts';
import { startFakeStripeServer, type FakeStripeServer } from '#tests/support/fake-stripe-server.ts';
import { closedPort, startTestSmtpServer } from '#tests/support/smtp-server.ts';
import { createStaff, createTestApp, signIn, testConfig, type TestContext } from '#tests/support/test-app.ts';

// The Integrations and Company panels' endpoints (issue 10), against real servers on 127.0.0.1.

const open: TestContext[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((context) => context.close()));
});

async function appWith(env: Record<string, string> = {}, options: { logStream?: NodeJS.WritableStream } = {}) {
  const context = await createTestApp({ env, logStream: options.logStream });
  open.push(context);
  await createStaff(context.database, 'admin@example.com');
  const cookie = await signIn(context.app, 'admin@example.com');
  const call = (method: 'GET' | 'POST', url: string) => context.app.inject({ method, url, headers: { cookie } });
  return {
    context,
    status: async () => {
      const response = await call('GET', '/api/admin/settings/integrations');
      expect(response.statusCode, response.body).toBe(200);
      return { body: response.body, ...(response.json() as IntegrationsResponse) };
    },
    test: async (name: string) => {
      const response = await call('POST', `/api/admin/settings/integrations/${name}/test`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as IntegrationTestResult;
    },
    call,
  };
}

function completion(content: string) {
  return { status: 200, json: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } };
}

describe('e-mail', () => {
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp?.close());

  it('shows the SMTP host, never the password or the URL with credentials', async () => {
    const { port } = new URL(smtp.url);
    const app = await appWith({ SMTP_URL: `smtp://mailer:Sup3rSecretPw@127.0.0.1:${port}` });
    const { body, integrations } = await app.status();
    expect(body).not.toContain('Sup3rSecretPw');
    expect(body).not.toContain('mailer:');
    expect(integrations.find((integration) => integration.name === 'email')).toMatchObject({
      adapter: 'smtp',
      summary: 'Sent through the SMTP server 127.0.0.1',
      details: expect.arrayContaining([{ label: 'Server', value: `127.0.0.1:${port}` }]),
    });
  });

  it('sends a real test e-mail to the signed-in admin and reports success', async () => {
    const app = await appWith({ SMTP_URL: smtp.url });
    const result = await app.test('email');
    expect(result).toMatchObject({ name: 'email', ok: true });
    expect(result.message).toContain('admin@example.com');
    // Delivered before the answer came back: sent synchronously, not queued.
    expect(smtp.received.at(-1)).toMatchObject({ to: ['admin@example.com'], subject: expect.stringContaining('Test e-mail') });
  });

  it('reports the server refusing the message with its own words', async () => {
    const app = await appWith({ SMTP_URL: smtp.url });
    smtp.state.isRejecting = true;
    try {
      const result = await app.test('email');
      expect(result.ok).toBe(false);
      expect(result.message).toContain('Mailbox temporarily unavailable');
    } finally {
      smtp.state.isRejecting = false;
    }
  });

  it('reports a mail server that cannot be reached, without the password', async () => {
    const port = await closedPort();
    const app = await appWith({ SMTP_URL: `smtp://mailer:Sup3rSecretPw@127.0.0.1:${port}` });
    const result = await app.test('email');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/ECONNREFUSED/);
    expect(result.message).not.toContain('Sup3rSecretPw');
  });

  it('without SMTP writes the test e-mail to the outbox folder', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hvac-settings-'));
    try {
      const app = await appWith({ DATA_DIR: dataDir });
      const email = (await app.status()).integrations.find((integration) => integration.name === 'email');
      expect(email).toMatchObject({ adapter: 'outbox', details: expect.arrayContaining([{ label: 'Folder', value: path.join(dataDir, 'outbox') }]) });
      const result = await app.test('email');
      expect(result).toMatchObject({ ok: true });
      const files = await fs.readdir(path.join(dataDir, 'outbox'));
      const written = await fs.readFile(path.join(dataDir, 'outbox', files.find((file) => file.endsWith('.eml'))!), 'utf8');
      expect(written).toContain('To: admin@example.com');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('chat', () => {
  it('the built-in assistant answers the fixed question', async () => {
    const app = await appWith();
    expect((await app.status()).integrations.find((integration) => integration.name === 'chat')).toMatchObject({ adapter: 'rule-based' });
    const result = await app.test('chat');
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(/rule-based responder answered: .+/);
  });

  it('a model API: shows host and model, never the key; reports the reply, then the real failure', async () => {
    const model = await startFakeHttpServer(() => completion('We are open weekdays 8 to 6.'));
    try {
      const app = await appWith({ CHAT_API_URL: `${model.url}/v1`, CHAT_API_KEY: 'sk-very-secret-key', CHAT_MODEL: 'test-model', CHAT_TIMEOUT_MS: '1000' });
      const { body, integrations } = await app.status();
      expect(body).not.toContain('sk-very-secret-key');
      expect(integrations.find((integration) => integration.name === 'chat')).toMatchObject({
        adapter: 'model',
        details: expect.arrayContaining([{ label: 'API host', value: new URL(model.url).host }, { label: 'Model', value: 'test-model' }]),
      });

      const ok = await app.test('chat');
      expect(ok).toMatchObject({ ok: true });
      expect(ok.message).toContain('We are open weekdays 8 to 6.');
      expect(model.requests.at(-1)).toMatchObject({ url: '/v1/chat/completions', body: { model: 'test-model' } });

      model.state.answer = () => ({ status: 401, json: { error: { message: 'bad key sk-very-secret-key' } } });
      const refused = await app.test('chat');
      expect(refused).toMatchObject({ ok: false, message: 'The chat model answered 401' });

      model.state.answer = () => 'hang';
      const slow = await app.test('chat');
      expect(slow.ok).toBe(false);
      expect(slow.message).toMatch(/time limit|timeout|aborted/i);
    } finally {
      await model.close();
    }
  });

  it('a webhook: reports its reply and its failure', async () => {
    const webhook = await startFakeHttpServer(() => ({ status: 200, json: { message: 'Hello from the webhook.' } }));
    try {
      const app = await appWith({ CHAT_WEBHOOK_URL: `${webhook.url}/hook?token=abc` });
      const { body, integrations } = await app.status();
      expect(body).not.toContain('token=abc');
      expect(integrations.find((integration) => integration.name === 'chat')).toMatchObject({ adapter: 'webhook' });
      expect(await app.test('chat')).toMatchObject({ ok: true, message: expect.stringContaining('Hello from the webhook.') });
      webhook.state.answer = () => ({ status: 502, text: 'bad gateway' });
      expect(await app.test('chat')).toMatchObject({ ok: false, message: 'The chat webhook answered 502' });
    } finally {
      await webhook.close();
    }
  });
});

describe('geocoding', () => {
  it('the ZIP provider places the company address near its ZIP centroid', async () => {
    const app = await appWith({ GEOCODER: 'zip' });
    expect((await app.status()).integrations.find((integration) => integration.name === 'geocoding')).toMatchObject({ adapter: 'zip', testable: true });
    const result = await app.test('geocoding');
    expect(result.ok, result.message).toBe(true);
    expect(result.message).toMatch(/27 Calhoun Street, Bluffton, SC 29910 → 32\.\d+, -80\.\d+ \(APPROXIMATE/);
  });

  it('reports a provider that fails with its status', async () => {
    const census = await startFakeHttpServer(() => ({ status: 503, text: 'down for maintenance' }));
    try {
      const app = await appWith({ GEOCODER: 'census', GEOCODER_CENSUS_URL: `${census.url}/geocoder`, GEOCODER_TIMEOUT_MS: '1000' });
      const result = await app.test('geocoding');
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/^census failed: .*503/);
    } finally {
      await census.close();
    }
  });
});

describe('map tiles', () => {
  it('the tile at zoom 12 over the office is the standard slippy-map tile', () => {
    expect(tileAt(32.2371, -80.8604, 12)).toEqual({ z: 12, x: 1127, y: 1660 });
    expect(tileUrlFor('https://{s}.tile.example/{z}/{x}/{y}{r}.png', { z: 12, x: 1, y: 2 })).toBe('https://a.tile.example/12/1/2.png');
    expect(tileUrlFor('/tiles/{z}/{x}/{-y}.png', { z: 2, x: 1, y: 0 })).toBe('/tiles/2/1/3.png');
  });

  it('fetches one tile and reports the HTTP status, a wrong answer, and a server that is not there', async () => {
    const tiles = await startFakeHttpServer((request) =>
      request.url.startsWith('/tiles/12/') ? { status: 200, text: 'PNG', headers: { 'content-type': 'image/png' } } : { status: 404, text: 'no' },
    );
    try {
      const config = testConfig();
      const service = (tileUrl: string | undefined) =>
        createIntegrationsService({
          config,
          emailSender: createFileSender(os.tmpdir()),
          chatResponder: createRuleBasedResponder(config.company),
          mapTileUrl: tileUrl,
        });
      const context = { recipient: 'admin@example.com' };

      const ok = await service(`${tiles.url}/tiles/{z}/{x}/{y}.png`).test('maps', context);
      expect(ok).toMatchObject({ ok: true, message: expect.stringContaining('answered HTTP 200 with image/png') });
      expect(tiles.requests.at(-1)?.url).toBe('/tiles/12/1127/1660.png');

      const missing = await service(`${tiles.url}/other/{z}/{x}/{y}.png`).test('maps', context);
      expect(missing).toMatchObject({ ok: false, message: expect.stringContaining('HTTP 404') });

      const port = await closedPort();
      const refused = await service(`http://127.0.0.1:${port}/{z}/{x}/{y}.png`).test('maps', context);
      expect(refused.ok).toBe(false);
      expect(refused.message).toMatch(/ECONNREFUSED/);

      const notConfigured = service(undefined);
      expect(notConfigured.status().integrations.find((integration) => integration.name === 'maps')).toMatchObject({ testable: false });
      expect(await notConfigured.test('maps', context)).toMatchObject({ ok: false });
    } finally {
      await tiles.close();
    }
  });

  it('the endpoint shows MAP_TILE_URL\'s host, tests through it, and refuses an unknown integration', async () => {
    const tiles = await startFakeHttpServer(() => ({ status: 200, text: 'PNG', headers: { 'content-type': 'image/png' } }));
    try {
      const app = await appWith({ MAP_TILE_URL: `${tiles.url}/osm/{z}/{x}/{y}.png` });
      const { integrations } = await app.status();
      expect(integrations.map((integration) => integration.name)).toEqual(['email', 'chat', 'geocoding', 'maps', 'payments']);
      expect(integrations.find((integration) => integration.name === 'maps')).toMatchObject({ adapter: 'tile-server', testable: true, summary: `Tiles come from ${new URL(tiles.url).host}` });
      expect(await app.test('maps')).toMatchObject({ ok: true, message: expect.stringContaining('tile 12/1127/1660') });
      expect(tiles.requests.at(-1)?.url).toBe('/osm/12/1127/1660.png');
      expect((await app.call('POST', '/api/admin/settings/integrations/fax/test')).statusCode).toBe(400);
    } finally {
      await tiles.close();
    }
  });
});

describe('the map tile test with a forged Host header', () => {
  // Issue 15: a path-relative tile template was completed with the request's Host header, so a
  // forged Host made the server fetch from wherever the caller pointed it (SSRF).
  it('the map-tile integration test builds its URL from the configured site URL, never the Host header', async () => {
    const tileAnswer = () => ({ status: 200, text: 'PNG', headers: { 'content-type': 'image/png' } });
    const site = await startFakeHttpServer(tileAnswer);
    const attacker = await startFakeHttpServer(tileAnswer);
    try {
      const app = await appWith({ COMPANY_SITE_URL: site.url, MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png' });
      const forgedHost = new URL(attacker.url).host;
      const response = await app.context.app.inject({
        method: 'POST',
        url: '/api/admin/settings/integrations/maps/test',
        headers: { cookie: (await signIn(app.context.app, 'admin@example.com')), host: forgedHost, 'x-forwarded-host': forgedHost },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ ok: true, message: expect.stringContaining(new URL(site.url).host) });
      expect(site.requests.map((request) => request.url)).toEqual(['/tiles/12/1127/1660.png']);
      expect(attacker.requests).toEqual([]);
    } finally {
      await Promise.all([site.close(), attacker.close()]);
    }
  });
});

describe('online payments (Stripe)', () => {
  let stripe: FakeStripeServer;
  beforeAll(async () => {
    stripe = await startFakeStripeServer();
  });
  afterAll(() => stripe?.close());

  const payments = (response: IntegrationsResponse) => response.integrations.find((integration) => integration.name === 'payments');
  /** Every log line the app writes, at the most detailed level. */
  function captureLogs() {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    return { logStream, text: () => lines.join('') };
  }

  it('the fake answers as Stripe does: 404 resource_missing for an unknown session, 401 for a wrong key', async () => {
    const unknown = await fetch(`${stripe.url}/v1/checkout/sessions/cs_test_doesNotExist1`, { headers: { authorization: `Bearer ${stripe.secretKey}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: "No such checkout.session: 'cs_test_doesNotExist1'",
        param: 'session',
        doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
      },
    });
    const wrongKey = await fetch(`${stripe.url}/v1/checkout/sessions/cs_test_doesNotExist1`, { headers: { authorization: 'Bearer sk_test_notTheRightKey0123456789' } });
    expect(wrongKey.status).toBe(401);
    const refused = (await wrongKey.json()) as { error: Record<string, unknown> };
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(/^Invalid API Key provided: sk_test_\*+6789$/) });
    expect(refused.error.code).toBeUndefined();
  });

  it('without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: none, customers are told how to pay, nothing to test', async () => {
    const app = await appWith();
    expect(payments(await app.status())).toMatchObject({
      adapter: 'none',
      summary: expect.stringContaining('the invoice page tells customers how to pay instead'),
      details: [],
      variables: expect.arrayContaining(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL']),
      testable: false,
    });
    const before = stripe.requests.length;
    expect(await app.test('payments')).toMatchObject({ ok: false, message: expect.stringContaining('not configured') });
    expect(stripe.requests.length).toBe(before);
  });

  it('with Stripe: the API host, the key\'s mode, the webhook URL and its events, never a secret; the test\'s 404 means the key was accepted', async () => {
    const logs = captureLogs();
    const app = await appWith({ ...stripe.env(), COMPANY_SITE_URL: 'https://www.example-hvac.com', LOG_LEVEL: 'trace' }, { logStream: logs.logStream });
    const { body, ...status } = await app.status();
    expect(payments(status)).toMatchObject({
      adapter: 'stripe',
      summary: 'Customers pay invoices and plan sign-ups by card on Stripe Checkout (test mode)',
      testable: true,
      variables: expect.arrayContaining(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL']),
    });
    const details = Object.fromEntries(payments(status)!.details.map((detail) => [detail.label, detail.value]));
    expect(details).toMatchObject({
      'API host': new URL(stripe.url).host,
      'Secret key': 'set (never shown), test mode',
      'Webhook URL': 'https://www.example-hvac.com/api/public/payments/stripe/webhook',
      'Webhook signing secret': 'set (never shown)',
    });
    expect(details['Webhook events']!.split(', ')).toEqual(expect.arrayContaining(['checkout.session.completed', 'payment_intent.succeeded', 'charge.refunded']));
    expect(body).not.toContain(stripe.secretKey);
    expect(body).not.toContain(stripe.webhookSecret);

    const before = stripe.requests.length;
    const sessions = stripe.sessions.size;
    const result = await app.test('payments');
    expect(result).toMatchObject({ name: 'payments', ok: true, message: expect.stringContaining('the key was accepted (test mode)') });
    expect(result.message).toContain('404 resource_missing');
    // One authenticated read, of a session that does not exist: nothing created or changed at Stripe.
    const sent = stripe.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'GET', url: expect.stringMatching(/^\/v1\/checkout\/sessions\/cs_test_\w+$/) });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(stripe.sessions.size).toBe(sessions);

    expect(logs.text()).toContain('/api/admin/settings/integrations/payments/test');
    expect(logs.text()).not.toContain(stripe.secretKey);
    expect(logs.text()).not.toContain(stripe.webhookSecret);
  });

  it('a key Stripe refuses fails with Stripe\'s message (a live key shows live mode), never the key', async () => {
    const wrongKey = `sk_live_${randomBytes(24).toString('hex')}`;
    const logs = captureLogs();
    const app = await appWith({ ...stripe.env(), STRIPE_SECRET_KEY: wrongKey, LOG_LEVEL: 'trace' }, { logStream: logs.logStream });
    const { body, ...status } = await app.status();
    expect(payments(status)).toMatchObject({ adapter: 'stripe', summary: expect.stringContaining('(live mode)') });
    expect(body).not.toContain(wrongKey);

    const result = await app.test('payments');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(new RegExp(`^Stripe at ${new URL(stripe.url).host}: Stripe refused the secret key .*HTTP 401.*Invalid API Key provided: sk_live_\\*+${wrongKey.slice(-4)}$`));
    expect(result.message).not.toContain('the key was accepted');
    expect(result.message).not.toContain(wrongKey);
    expect(logs.text()).not.toContain(wrongKey);
    expect(logs.text()).not.toContain(stripe.webhookSecret);
  });

  it('only Stripe\'s own 404 counts: an outage or another server at STRIPE_API_URL is a failure', async () => {
    const app = await appWith(stripe.env());
    stripe.failNext(1, { status: 500, message: 'An unknown error occurred' });
    expect(await app.test('payments')).toMatchObject({ ok: false, message: expect.stringMatching(/HTTP 500.*An unknown error occurred/) });

    const elsewhere = await startFakeHttpServer(() => ({ status: 404, text: 'Not Found' }));
    try {
      const misdirected = await appWith({ ...stripe.env(), STRIPE_API_URL: elsewhere.url });
      expect(await misdirected.test('payments')).toMatchObject({ ok: false, message: expect.stringContaining('HTTP 404') });
      expect(elsewhere.requests).toHaveLength(1);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('company profile', () => {
  it('shows every value the server runs with, where it is used and the variable that sets it', async () => {
    const app = await appWith({ COMPANY_NAME: 'Test Air Co', COMPANY_PHONE: '(843) 555-7777', NOTIFICATION_RECIPIENTS: 'a@example.com,b@example.com' });
    const response = await app.call('GET', '/api/admin/settings/company');
    expect(response.statusCode).toBe(200);
    const { items } = response.json() as CompanySettingsResponse;
    expect(items.find((item) => item.key === 'name')).toMatchObject({ value: 'Test Air Co', variables: ['COMPANY_NAME'], usedIn: expect.arrayContaining(['site', 'chat', 'emails']) });
    expect(items.find((item) => item.key === 'phone')).toMatchObject({ value: '(843) 555-7777', variables: ['COMPANY_PHONE'] });
    expect(items.find((item) => item.key === 'address')).toMatchObject({ value: '27 Calhoun Street, Bluffton, SC 29910', variables: ['COMPANY_STREET', 'COMPANY_CITY', 'COMPANY_STATE', 'COMPANY_ZIP'] });
    expect(items.find((item) => item.key === 'openingHours')).toMatchObject({ value: 'Mon-Fri 8AM-6PM; Sat 9AM-4PM' });
    expect(items.find((item) => item.key === 'notificationRecipients')).toMatchObject({ value: 'a@example.com, b@example.com', usedIn: ['emails'] });
    expect(items.map((item) => item.key)).toEqual([
      'name', 'phone', 'emergencyPhone', 'email', 'address', 'openingHours', 'geo', 'facebook', 'instagram', 'google', 'siteUrl', 'timeZone', 'notificationRecipients',
    ]);
  });

  it('needs a session', async () => {
    const app = await appWith();
    expect((await app.context.app.inject({ method: 'GET', url: '/api/admin/settings/company' })).statusCode).toBe(401);
    expect((await app.context.app.inject({ method: 'POST', url: '/api/admin/settings/integrations/email/test' })).statusCode).toBe(401);
  });
});
