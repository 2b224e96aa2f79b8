import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { retryDelaysMinutes } from '#server/modules/email/email-outbox.ts';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';
import { closedPort, startTestSmtpServer } from '#tests/support/smtp-server.ts';

let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
let context: TestContext;
let nextAddress = 10;
const freshAddress = () => `127.0.2.${(nextAddress += 1)}`;

function submit(body: object, options: { key?: string; address?: string; app?: TestContext } = {}) {
  return (options.app ?? context).app.inject({
    method: 'POST',
    url: '/api/public/estimate-requests',
    payload: body,
    headers: options.key ? { 'idempotency-key': options.key } : {},
    remoteAddress: options.address ?? freshAddress(),
  });
}

async function rows<Row>(sqlText: string, params: unknown[] = [], app: TestContext = context): Promise<Row[]> {
  return app.database.query<Row>(sqlText, params);
}

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  context = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_FORM_LIMIT: '3' } });
});
afterAll(async () => {
  await context.close();
  await smtp.close();
});

describe('submitting an estimate request', () => {
  it('stores it as pending, urgent for a repair, from the website, and e-mails staff and the customer', async () => {
    const response = await submit(validEstimateRequest);
    expect(response.statusCode).toBe(201);
    const { request } = response.json();
    expect(request).toMatchObject({ status: 'pending', priority: 'urgent' });

    const [stored] = await rows<Record<string, unknown>>('select * from estimate_requests where id = $1', [request.id]);
    expect(stored).toMatchObject({
      name: 'Dana Whitfield',
      email: 'dana.whitfield@example.com',
      service_type: 'ac-repair',
      status: 'pending',
      priority: 'urgent',
      source: 'website',
      preferred_date: null,
      preferred_time: null,
    });

    // Both messages reach a real SMTP server: delivery runs right after the request is stored.
    await context.app.emailOutbox.idle();
    const toStaff = smtp.received.find((mail) => mail.to.includes('office@lowcountrycomfort.example'))!;
    const toCustomer = smtp.received.find((mail) => mail.to.includes('dana.whitfield@example.com'))!;
    expect(toStaff.to).toEqual(['office@lowcountrycomfort.example', 'dispatch@lowcountrycomfort.example']);
    expect(toStaff.subject).toBe('[URGENT] New estimate request: AC Repair for Dana Whitfield');
    expect(toStaff.raw).toContain('Upstairs unit blows warm air');
    expect(toCustomer.subject).toBe('We received your estimate request | Lowcountry Comfort Heating & Air');
    // Written from the "estimate request received" template (quoted-printable: soft line breaks removed).
    const confirmationText = toCustomer.raw.replace(/=\r?\n/g, '');
    expect(confirmationText).toContain('within 24 hours');
    expect(confirmationText).toContain(`Your request reference: EST-${request.id.replace(/-/g, '').slice(0, 8).toUpperCase()}`);
    expect(confirmationText).not.toContain('Dana');
    const outbox = await rows<{ status: string }>(`select status from outbound_emails where related_id = $1`, [request.id]);
    expect(outbox.map((row) => row.status)).toEqual(['sent', 'sent']);
  });

  it('writes the confirmation from the template an admin edited in Settings, never with what the visitor typed', async () => {
    await createStaff(context.database, 'template-admin@example.com');
    const cookie = await signIn(context.app, 'template-admin@example.com', undefined, '127.0.3.1');
    const edited = await context.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/message-templates/estimate_received',
      payload: { subject: 'Got it: {{request.reference}}', emailBody: 'Hi {{customer.firstName}}, your {{request.service}} request is in. {{company.phone}}', smsBody: 'Got it - {{company.name}}' },
      headers: { cookie },
      remoteAddress: '127.0.3.1',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const response = await submit({ ...validEstimateRequest, name: 'Mallory <b>Spam</b>', email: 'template-reader@example.com', serviceType: 'maintenance' });
    expect(response.statusCode).toBe(201);
    const id = response.json().request.id as string;
    const [confirmation] = await rows<{ subject: string; text_body: string }>(
      `select subject, text_body from outbound_emails where related_id = $1 and recipients = array['template-reader@example.com']`,
      [id],
    );
    expect(confirmation).toEqual({
      subject: `Got it: EST-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`,
      text_body: `Hi there, your Maintenance request is in. ${context.config.company.phone}`,
    });
    await context.app.inject({ method: 'DELETE', url: '/api/admin/settings/message-templates/estimate_received', headers: { cookie }, remoteAddress: '127.0.3.1' });
  });

  it('is normal priority for anything but the two repair types, and keeps the optional fields', async () => {
    const today = todayIn('America/New_York');
    const response = await submit({ ...validEstimateRequest, serviceType: 'maintenance', preferredDate: today, preferredTime: 'evening' });
    expect(response.statusCode).toBe(201);
    const [stored] = await rows<{ priority: string; preferred_date: string; preferred_time: string }>(
      `select priority, preferred_date::text, preferred_time from estimate_requests where id = $1`,
      [response.json().request.id],
    );
    expect(stored).toEqual({ priority: 'normal', preferred_date: today, preferred_time: 'evening' });
  });
});

describe('bad input', () => {
  it('answers 400 naming each problem, and stores nothing', async () => {
    const before = await rows<{ count: number }>('select count(*)::int as count from estimate_requests');
    const response = await submit({ name: ' ', email: 'not-an-email', phone: '555', address: '', serviceType: 'plumbing' });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Name is required' },
        { path: 'email', message: 'Please enter a valid email address' },
        { path: 'phone', message: 'Please enter a valid phone number' },
        { path: 'address', message: 'Address is required' },
        { path: 'serviceType', message: 'Service type is required' },
      ]),
    );
    const after = await rows<{ count: number }>('select count(*)::int as count from estimate_requests');
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it('refuses a preferred date before today in the company time zone', async () => {
    const yesterday = new Date(`${todayIn('America/New_York')}T12:00:00Z`);
    yesterday.setUTCDate(yesterday.getUTCDate() - 1);
    const response = await submit({ ...validEstimateRequest, preferredDate: yesterday.toISOString().slice(0, 10) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([{ path: 'preferredDate', message: 'Preferred date cannot be before today' }]);
  });

  it('refuses a body over 16 KB', async () => {
    const response = await submit({ ...validEstimateRequest, description: 'x'.repeat(20_000) });
    expect(response.statusCode).toBe(413);
  });
});

describe('abuse and accidents', () => {
  it('a retried submission with the same idempotency key creates one request and returns the first result', async () => {
    const key = 'c0ffee00-1111-4222-8333-444455556666';
    const first = await submit({ ...validEstimateRequest, name: 'Retry Person' }, { key });
    const second = await submit({ ...validEstimateRequest, name: 'Retry Person' }, { key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const stored = await rows<{ id: string }>(`select id from estimate_requests where name = 'Retry Person'`);
    expect(stored).toHaveLength(1);
    const emails = await rows<{ id: string }>(`select id from outbound_emails where related_id = $1`, [stored[0]!.id]);
    expect(emails).toHaveLength(2);
  });

  it('refuses a malformed Idempotency-Key (the route\'s header schema) with the header\'s own message, storing nothing', async () => {
    const message = 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores';
    for (const key of ['short', 'has spaces in it', 'k'.repeat(129)]) {
      const response = await submit({ ...validEstimateRequest, name: 'Bad Key Person' }, { key });
      expect(response.statusCode, key).toBe(400);
      expect(response.json(), key).toEqual({ error: { code: 'VALIDATION_FAILED', message, details: [{ path: '', message }] } });
    }
    expect(await rows(`select id from estimate_requests where name = 'Bad Key Person'`)).toHaveLength(0);
  });

  it('a filled honeypot looks accepted but stores nothing', async () => {
    const response = await submit({ ...validEstimateRequest, name: 'Bot McBotface', website: 'http://spam.example' });
    expect(response.statusCode).toBe(201);
    expect(response.json().request.status).toBe('pending');
    expect(await rows(`select id from estimate_requests where name = 'Bot McBotface'`)).toHaveLength(0);
  });

  it('limits submissions per address', async () => {
    const address = freshAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await submit({ ...validEstimateRequest, serviceType: 'other' }, { address })).statusCode).toBe(201);
    }
    const limited = await submit({ ...validEstimateRequest, serviceType: 'other' }, { address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe('Too many requests. Please wait a moment and try again.');
    expect((await submit({ ...validEstimateRequest, serviceType: 'other' })).statusCode).toBe(201);
  });
});

describe('when e-mail fails', () => {
  it('still stores the request and answers 201; the messages wait and are retried until the server takes them', async () => {
    smtp.state.isRejecting = true;
    const response = await submit({ ...validEstimateRequest, name: 'Patient Customer', email: 'patient.customer@example.com' });
    expect(response.statusCode).toBe(201);
    const id = response.json().request.id;
    expect(await rows(`select id from estimate_requests where id = $1`, [id])).toHaveLength(1);

    // The delivery attempt made right after the request fails; the messages stay queued for later.
    await context.app.emailOutbox.idle();
    const afterFailure = await rows<{ status: string; attempts: number; last_error: string; due_later: boolean }>(
      `select status, attempts, last_error, next_attempt_at > now() as due_later from outbound_emails where related_id = $1`,
      [id],
    );
    expect(afterFailure).toHaveLength(2);
    for (const row of afterFailure) {
      expect(row.status).toBe('pending');
      expect(row.attempts).toBe(1);
      expect(row.last_error).toMatch(/Mailbox temporarily unavailable/);
      expect(row.due_later).toBe(true);
    }

    smtp.state.isRejecting = false;
    await rows(`update outbound_emails set next_attempt_at = now() where related_id = $1`, [id]);
    const retry = await context.app.emailOutbox.deliverDue();
    expect(retry.sent).toBe(2);
    const afterRetry = await rows<{ status: string }>(`select status from outbound_emails where related_id = $1`, [id]);
    expect(afterRetry.map((row) => row.status)).toEqual(['sent', 'sent']);
  });

  it('gives a message up as failed after the last retry', async () => {
    smtp.state.isRejecting = true;
    const response = await submit({ ...validEstimateRequest, name: 'Last Try', email: 'last.try@example.com' });
    const id = response.json().request.id;
    await context.app.emailOutbox.idle();
    await rows(`update outbound_emails set attempts = $2, next_attempt_at = now() where related_id = $1`, [id, retryDelaysMinutes.length]);
    await context.app.emailOutbox.deliverDue();
    const after = await rows<{ status: string }>(`select status from outbound_emails where related_id = $1`, [id]);
    expect(after.map((row) => row.status)).toEqual(['failed', 'failed']);
    smtp.state.isRejecting = false;
  });

  it('with no mail server reachable at all, the request is saved all the same', async () => {
    const unreachable = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
    try {
      const response = await submit(validEstimateRequest, { app: unreachable });
      expect(response.statusCode).toBe(201);
      await unreachable.app.emailOutbox.idle();
      const [row] = await rows<{ status: string; last_error: string }>(`select status, last_error from outbound_emails limit 1`, [], unreachable);
      expect(row!.status).toBe('pending');
      expect(row!.last_error).toMatch(/ECONNREFUSED/);
      expect(await rows('select id from estimate_requests', [], unreachable)).toHaveLength(1);
    } finally {
      await unreachable.close();
    }
  });
});

describe('offline default', () => {
  it('writes each message as an .eml file under DATA_DIR/outbox when no SMTP server is configured', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hvac-outbox-'));
    const offline = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      expect((await submit({ ...validEstimateRequest, name: 'File Person' }, { app: offline })).statusCode).toBe(201);
      await offline.app.emailOutbox.idle();
      await offline.close();
      const files = fs.readdirSync(path.join(dataDir, 'outbox')).filter((file) => file.endsWith('.eml'));
      expect(files).toHaveLength(2);
      const contents = files.map((file) => fs.readFileSync(path.join(dataDir, 'outbox', file), 'utf8')).join('\n');
      expect(contents).toContain('Subject: [URGENT] New estimate request: AC Repair for File Person');
      expect(contents).toContain('To: dana.whitfield@example.com');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
