import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsMessage, SmsSender } from '#server/adapters/sms/sms-sender.ts';
import { estimateTextsPerNumberPerDay } from '#server/modules/messaging/index.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import type { LeadConversionProposal } from '#shared/lead.ts';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

/**
 * The public forms' "text me" box (issue 18, decision 021-a): a ticked box on the estimate form is
 * kept with the request and becomes the customer's consent to texts when staff convert it; on the
 * chat's Schedule Service form it is the new customer's consent at once. Unticked, nothing is
 * stored, and a later choice (a STOP, a staff change) is never overwritten by an older form.
 */
let context: TestContext;
let cookie: string;
let nextAddress = 10;
const freshAddress = () => `127.0.9.${(nextAddress += 1)}`;

type ConsentRow = { status: string; source: string; changed_at: string };

async function consentsOf(customerId: string): Promise<Record<string, ConsentRow>> {
  const rows = await context.database.query<ConsentRow & { channel: string }>(
    `select channel, status, source, changed_at::text from customer_message_consents where customer_id = $1`,
    [customerId],
  );
  return Object.fromEntries(rows.map(({ channel, ...row }) => [channel, row]));
}

async function submitEstimate(body: object): Promise<string> {
  const response = await context.app.inject({ method: 'POST', url: '/api/public/estimate-requests', payload: body, remoteAddress: freshAddress() });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().request.id;
}

async function convertAsNewCustomer(id: string): Promise<string> {
  const proposal = await context.app.inject({ method: 'GET', url: `/api/admin/leads/estimate/${id}/conversion`, headers: { cookie } });
  expect(proposal.statusCode, proposal.body).toBe(200);
  const proposed: LeadConversionProposal = proposal.json();
  const response = await context.app.inject({
    method: 'POST',
    url: `/api/admin/leads/estimate/${id}/convert`,
    payload: { customer: { mode: 'new', ...proposed.newCustomer }, workOrder: proposed.workOrder },
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().customer.id;
}

async function convertToExisting(id: string, customerId: string): Promise<void> {
  const proposal = await context.app.inject({ method: 'GET', url: `/api/admin/leads/estimate/${id}/conversion`, headers: { cookie } });
  const proposed: LeadConversionProposal = proposal.json();
  const response = await context.app.inject({
    method: 'POST',
    url: `/api/admin/leads/estimate/${id}/convert`,
    payload: { customer: { mode: 'existing', customerId }, workOrder: proposed.workOrder },
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(201);
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
});
afterAll(async () => {
  await context.close();
});

describe('the estimate form\'s "text me" box', () => {
  it('is kept with the request when ticked and becomes the customer\'s text consent (source form) on conversion', async () => {
    const id = await submitEstimate({ ...validEstimateRequest, name: 'Tess Ticked', phone: '(843) 555-0301', smsConsent: 'on' });
    const [request] = await context.database.query<{ sms_consent_at: string | null }>(`select sms_consent_at::text from estimate_requests where id = $1`, [id]);
    expect(request!.sms_consent_at).not.toBeNull();

    const customerId = await convertAsNewCustomer(id);
    const consents = await consentsOf(customerId);
    expect(consents.sms).toMatchObject({ status: 'opted_in', source: 'form' });
    expect(new Date(consents.sms!.changed_at).getTime()).toBe(new Date(request!.sms_consent_at!).getTime());
    // E-mail needs no box: no row, the default (sending when there is an address).
    expect(consents.email).toBeUndefined();

    const messaging = await context.app.inject({ method: 'GET', url: `/api/admin/customers/${customerId}/messaging`, headers: { cookie } });
    expect(messaging.json().consents.find((consent: { channel: string }) => consent.channel === 'sms')).toMatchObject({ status: 'opted_in', source: 'form', isSending: true });
  });

  it('stores nothing when unticked: the customer gets no texts', async () => {
    const id = await submitEstimate({ ...validEstimateRequest, name: 'Ursula Unticked', phone: '(843) 555-0302' });
    const [request] = await context.database.query<{ sms_consent_at: string | null }>(`select sms_consent_at::text from estimate_requests where id = $1`, [id]);
    expect(request!.sms_consent_at).toBeNull();
    const customerId = await convertAsNewCustomer(id);
    expect(await consentsOf(customerId)).toEqual({});
  });

  it('never overrides a later choice: a customer who opted out after sending the form stays opted out', async () => {
    const ticked = await submitEstimate({ ...validEstimateRequest, name: 'Olive Later', phone: '(843) 555-0303', smsConsent: 'on' });
    const other = await submitEstimate({ ...validEstimateRequest, name: 'Olive Later', phone: '(843) 555-0303' });
    const customerId = await convertAsNewCustomer(other);
    // Staff record the customer's "no texts" after the form was sent.
    const optOut = await context.app.inject({ method: 'PUT', url: `/api/admin/customers/${customerId}/consents/sms`, payload: { status: 'opted_out' }, headers: { cookie } });
    expect(optOut.statusCode, optOut.body).toBe(200);
    await convertToExisting(ticked, customerId);
    expect((await consentsOf(customerId)).sms).toMatchObject({ status: 'opted_out', source: 'staff' });
  });

  it('refuses a value that is not a box\'s with a clear error and stores nothing', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/public/estimate-requests',
      payload: { ...validEstimateRequest, name: 'Bad Box', smsConsent: 'definitely' },
      remoteAddress: freshAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Text consent must be true or false');
    expect(await context.database.query(`select 1 from estimate_requests where name = 'Bad Box'`)).toHaveLength(0);
  });
});

describe('the chat\'s Schedule Service box', () => {
  function book(body: object, key: string) {
    return context.app.inject({
      method: 'POST',
      url: '/api/public/chat/bookings',
      payload: {
        sessionId: `session-${key}`,
        name: 'Chat Booker',
        phone: '(843) 555-0310',
        email: '',
        address: '9 Tide Ct, Bluffton, SC 29910',
        serviceType: 'repair',
        preferredDate: addDays(todayIn(context.config.businessTimeZone), 2),
        description: 'No heat',
        ...body,
      },
      headers: { 'idempotency-key': key },
      remoteAddress: freshAddress(),
    });
  }

  async function bookedCustomer(workOrderNumber: string): Promise<string> {
    const [row] = await context.database.query<{ customer_id: string }>(`select customer_id from work_orders where work_order_number = $1`, [workOrderNumber]);
    return row!.customer_id;
  }

  it('makes the new customer\'s text consent when ticked, and nothing when not', async () => {
    const ticked = await book({ name: 'Chad Ticked', smsConsent: true }, 'consent-ticked-0001');
    expect(ticked.statusCode, ticked.body).toBe(201);
    expect((await consentsOf(await bookedCustomer(ticked.json().workOrderNumber))).sms).toMatchObject({ status: 'opted_in', source: 'form' });

    const unticked = await book({ name: 'Una Unticked', phone: '(843) 555-0311' }, 'consent-unticked-0001');
    expect(unticked.statusCode, unticked.body).toBe(201);
    expect(await consentsOf(await bookedCustomer(unticked.json().workOrderNumber))).toEqual({});
  });
});

describe('the estimate request\'s text (the box ticked)', () => {
  /** A real SmsSender that records what it is given. */
  const texts: SmsMessage[] = [];
  const recording: SmsSender = {
    kind: 'api',
    send: async (message) => {
      texts.push(message);
      return { providerId: `SM${String(texts.length).padStart(32, '0')}` };
    },
  };
  let textContext: TestContext;
  let clock: Date;

  beforeAll(async () => {
    textContext = await createTestApp({ smsSender: recording, now: () => clock });
    // Midday in the company's time zone (17:00 UTC is 12:00 or 13:00 on the East coast): outside the quiet hours.
    clock = new Date(`${todayIn(textContext.config.businessTimeZone)}T17:00:00Z`);
  });
  afterAll(async () => {
    await textContext.close();
  });

  const submitTo = (phone: string, smsConsent?: string) =>
    textContext.app.inject({
      method: 'POST',
      url: '/api/public/estimate-requests',
      payload: { ...validEstimateRequest, phone, serviceType: 'maintenance', ...(smsConsent ? { smsConsent } : {}) },
      remoteAddress: freshAddress(),
    });

  it('texts the reference and the service (never the typed name) to the number given, at most three a day per number', async () => {
    const first = await submitTo('(843) 555-0401', 'on');
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json().request.id as string;
    await textContext.app.messaging.dispatchDue();
    expect(texts.filter((text) => text.to === '+18435550401').map((text) => text.body)).toEqual([
      `${textContext.config.company.name}: we received your estimate request EST-${id.replace(/-/g, '').slice(0, 8).toUpperCase()} and will call you within 24 hours. Reply STOP to opt out.`,
    ]);
    expect(texts.some((text) => text.body.includes(validEstimateRequest.name))).toBe(false);

    // Unticked: no text.
    expect((await submitTo('(843) 555-0402')).statusCode).toBe(201);
    await textContext.app.messaging.dispatchDue();
    expect(texts.filter((text) => text.to === '+18435550402')).toEqual([]);

    // The cap: three a day to one number, however many forms are sent.
    for (let index = 0; index < 3; index += 1) expect((await submitTo('843-555-0401', 'on')).statusCode).toBe(201);
    await textContext.app.messaging.dispatchDue();
    expect(texts.filter((text) => text.to === '+18435550401')).toHaveLength(estimateTextsPerNumberPerDay);
  });

  it('waits out the quiet hours', async () => {
    const evening = clock;
    clock = new Date(`${todayIn(textContext.config.businessTimeZone)}T02:30:00Z`); // 21:30 or 22:30 the evening before, company time
    try {
      expect((await submitTo('(843) 555-0403', 'on')).statusCode).toBe(201);
      await textContext.app.messaging.dispatchDue();
      expect(texts.filter((text) => text.to === '+18435550403')).toEqual([]);
      const [planned] = await textContext.database.query<{ send_at: string }>(`select send_at::text from messages where recipient = '+18435550403'`);
      expect(new Date(planned!.send_at).getTime()).toBeGreaterThan(clock.getTime() + 8 * 3_600_000);
    } finally {
      clock = evening;
    }
  });
});
