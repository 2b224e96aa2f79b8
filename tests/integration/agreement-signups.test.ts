import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgreementDetail } from '#shared/agreement.ts';
import type { AgreementSignup } from '#shared/agreement-signup.ts';
import { messagingFixtures } from '#tests/support/messaging.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Issue 22: the site's plan sign-up (decision 027-b), from the public form to the office's decision.
let context: TestContext;
let clock = new Date();
let adminCookie: string;
let dispatcherCookie: string;
let nextAddress = 10;
let nextKey = 1000;
const freshAddress = () => `127.0.3.${(nextAddress += 1)}`;
const freshKey = () => `signup-key-${(nextKey += 1)}`;

const { rows, localInstant, newCustomer } = messagingFixtures({
  database: () => context.database,
  timeZone: () => context.config.businessTimeZone,
  workOrderDefaults: () => ({ serviceDate: '2027-01-01', technicianId: '' }),
});

const validSignup = {
  planId: 'advanced',
  billing: 'monthly',
  name: 'Morgan Ellis',
  email: 'morgan.ellis@example.com',
  phone: '(843) 555-0142',
  address: '12 Heron Point Drive',
  zip: '29910',
  note: 'Two systems, upstairs and down.',
};

function submit(body: object, options: { key?: string | null; address?: string } = {}) {
  const key = options.key === undefined ? freshKey() : options.key;
  return context.app.inject({
    method: 'POST',
    url: '/api/public/maintenance-plan-signups',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
    remoteAddress: options.address ?? freshAddress(),
  });
}

async function api(method: 'GET' | 'POST', url: string, payload?: unknown, as: 'admin' | 'dispatcher' | 'nobody' = 'admin') {
  const cookie = as === 'admin' ? adminCookie : as === 'dispatcher' ? dispatcherCookie : undefined;
  return context.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function signupRows(): Promise<{ id: string; status: string; email: string; lead_id: string | null }[]> {
  return rows(sql`select id, status, email, lead_id from maintenance_agreement_signups order by created_at, id`);
}

async function pendingSignupByEmail(email: string): Promise<AgreementSignup> {
  const response = await api('GET', '/api/admin/agreement-signups?status=pending&pageSize=100');
  expect(response.statusCode, response.body).toBe(200);
  const found = (response.json().signups as AgreementSignup[]).find((signup) => signup.email === email);
  expect(found, `a waiting sign-up for ${email}`).toBeDefined();
  return found!;
}

async function submitted(overrides: Record<string, unknown> = {}): Promise<AgreementSignup> {
  const body = { ...validSignup, ...overrides };
  const response = await submit(body);
  expect(response.statusCode, response.body).toBe(201);
  return pendingSignupByEmail(body.email as string);
}

async function agreementDetail(id: string): Promise<AgreementDetail> {
  const response = await api('GET', `/api/admin/agreements/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().agreement;
}

beforeAll(async () => {
  context = await createTestApp({ now: () => clock, env: { PUBLIC_FORM_LIMIT: '100' } });
  // A day in the lead time of the spring season: a plan sold today has its spring visit at once.
  clock = await localInstant('2027-02-15', '12:00');
  await createStaff(context.database, 'admin@example.com');
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  adminCookie = await signIn(context.app, 'admin@example.com');
  dispatcherCookie = await signIn(context.app, 'dispatch@example.com');
});

afterAll(async () => {
  await context?.close();
});

describe('signing up on the site', () => {
  it('stores a waiting sign-up, makes a lead and a staff notification, and queues the visitor’s e-mail', async () => {
    const response = await submit(validSignup);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = response.json();
    expect(answer).toEqual({ status: 'received', reference: expect.stringMatching(/^PS-[0-9A-F]{8}$/), payment: { status: 'not_offered' } });

    const signup = await pendingSignupByEmail(validSignup.email);
    expect(signup).toMatchObject({
      reference: answer.reference,
      planId: 'advanced',
      planName: 'Advanced',
      billing: 'monthly',
      name: 'Morgan Ellis',
      phone: '(843) 555-0142',
      address: '12 Heron Point Drive',
      city: 'Bluffton',
      zip: '29910',
      note: 'Two systems, upstairs and down.',
      status: 'pending',
      agreementId: null,
      customerId: null,
    });

    // The lead: an estimate request from the website on the Leads screen.
    const [lead] = await rows<{ service_type: string; source: string; status: string; description: string; address: string }>(
      sql`select service_type, source, status, description, address from estimate_requests where id = ${signup.leadId}`,
    );
    expect(lead).toMatchObject({ service_type: 'maintenance', source: 'website', status: 'pending', address: '12 Heron Point Drive, Bluffton, SC 29910' });
    expect(lead!.description).toContain(`Maintenance plan sign-up ${answer.reference}: Advanced plan, billed monthly.`);
    const leads = await api('GET', '/api/admin/leads?filter=new&search=Morgan%20Ellis');
    expect(leads.json().leads.map((item: { id: string }) => item.id)).toContain(signup.leadId);

    const notifications = await rows<{ title: string; data: { link: string; signup_id: string } }>(sql`select title, data from admin_notifications where type = 'new_plan_signup'`);
    expect(notifications).toEqual([{ title: 'New plan sign-up: Advanced', data: expect.objectContaining({ link: '/admin/visits-due', signup_id: signup.id }) }]);

    const emails = await rows<{ recipients: string[]; subject: string; text_body: string; kind: string }>(
      sql`select recipients, subject, text_body, kind from outbound_emails where related_id = ${signup.id}`,
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ recipients: ['morgan.ellis@example.com'], subject: 'We received your Advanced maintenance plan sign-up', kind: 'agreement_signup_received' });
    expect(emails[0]!.text_body).toContain(`Your reference is ${answer.reference}`);
    expect(emails[0]!.text_body).toContain('Our office will confirm your plan');

    const [audit] = await rows<{ actor_name: string; action: string }>(sql`select actor_name, action from audit_log where entity_type = 'agreement_signup' and entity_id = ${signup.id}`);
    expect(audit).toEqual({ actor_name: 'Website visitor', action: 'created' });
  });

  it('stores a double-submitted form once and answers the repeat with the first result', async () => {
    const before = (await signupRows()).length;
    const body = { ...validSignup, email: 'twice@example.com' };
    const first = await submit(body, { key: 'double-submit-0001' });
    const second = await submit(body, { key: 'double-submit-0001' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect((await signupRows()).length).toBe(before + 1);
    expect(await rows(sql`select id from estimate_requests where email = 'twice@example.com'`)).toHaveLength(1);
  });

  it('refuses a ZIP code outside the service area with a clear error and stores nothing', async () => {
    const before = (await signupRows()).length;
    const response = await submit({ ...validSignup, zip: '90210' });
    expect(response.statusCode).toBe(400);
    const message = `We do not serve that ZIP code with a maintenance plan yet. Please call us at ${context.config.company.phone}: we may still be able to help.`;
    expect(response.json().error).toEqual({ code: 'VALIDATION_FAILED', message, details: [{ path: 'zip', message }] });
    expect((await signupRows()).length).toBe(before);
  });

  it('answers a filled honeypot like a sign-up and stores nothing', async () => {
    const before = { signups: (await signupRows()).length, emails: await rows(sql`select id from outbound_emails`) };
    const response = await submit({ ...validSignup, email: 'bot@example.com', website: 'http://spam.example' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ status: 'received', reference: expect.stringMatching(/^PS-[0-9A-F]{8}$/), payment: { status: 'not_offered' } });
    expect((await signupRows()).length).toBe(before.signups);
    expect(await rows(sql`select id from outbound_emails`)).toHaveLength(before.emails.length);
    expect(await rows(sql`select id from estimate_requests where email = 'bot@example.com'`)).toEqual([]);
  });

  it('refuses bad input with a 400 naming each field, and stores nothing', async () => {
    const before = (await signupRows()).length;
    const response = await submit({ planId: 'gold', billing: 'weekly', name: ' ', email: 'not-an-email', phone: '12', address: '', zip: '2991' });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    const fields = new Map((error.details as { path: string; message: string }[]).map((detail) => [detail.path, detail.message]));
    expect(Object.fromEntries(fields)).toMatchObject({
      planId: 'Choose a plan.',
      billing: 'Choose yearly or monthly billing.',
      name: 'Name is required',
      email: 'Please enter a valid email address',
      phone: 'Please enter a valid phone number',
      address: 'Address is required',
      zip: 'Enter the 5-digit ZIP code of the home.',
    });
    expect((await signupRows()).length).toBe(before);
  });

  it('answers the same whether or not the e-mail and phone belong to a stored customer', async () => {
    const known = await newCustomer({ email: 'known.customer@example.com', phone: '(843) 555-0177' });
    const fromKnown = await submit({ ...validSignup, email: 'known.customer@example.com', phone: '(843) 555-0177' });
    const fromUnknown = await submit({ ...validSignup, email: 'nobody.here@example.com', phone: '(843) 555-0178' });
    expect(fromKnown.statusCode).toBe(fromUnknown.statusCode);
    const shape = (response: typeof fromKnown) => ({ ...response.json(), reference: response.json().reference.replace(/[0-9A-F]{8}$/, 'XXXXXXXX') });
    expect(shape(fromKnown)).toEqual(shape(fromUnknown));
    expect(Object.keys(fromKnown.headers).sort()).toEqual(Object.keys(fromUnknown.headers).sort());
    // Staff, and only staff, see the possible match.
    expect((await pendingSignupByEmail('known.customer@example.com')).possibleCustomer).toEqual({ id: known.id, name: known.name });
    expect((await pendingSignupByEmail('nobody.here@example.com')).possibleCustomer).toBeNull();
  });
});

describe('the office’s decision', () => {
  it('confirms a sign-up as a new customer: the customer, an active agreement with the visits a sale makes, the lead settled and the visitor told', async () => {
    const signup = await submitted({ email: 'new.member@example.com', name: 'Riley New', planId: 'advanced', billing: 'yearly' });
    const response = await api('POST', `/api/admin/agreement-signups/${signup.id}/confirm`, { customer: { mode: 'new' } }, 'dispatcher');
    expect(response.statusCode, response.body).toBe(200);
    const confirmed: AgreementSignup = response.json().signup;
    expect(confirmed).toMatchObject({ status: 'confirmed', customerName: 'Riley New', agreementNumber: expect.stringMatching(/^MA-\d+$/) });

    const [customer] = await rows<Record<string, unknown>>(sql`select name, email, phone, address, city, state, zip from customers where id = ${confirmed.customerId}`);
    expect(customer).toEqual({ name: 'Riley New', email: 'new.member@example.com', phone: '(843) 555-0142', address: '12 Heron Point Drive', city: 'Bluffton', state: 'SC', zip: '29910' });

    const agreement = await agreementDetail(confirmed.agreementId!);
    expect(agreement).toMatchObject({ customerId: confirmed.customerId, planId: 'advanced', status: 'active', billing: 'yearly', startDate: '2027-02-15', autoRenew: true });
    expect(agreement.notes).toContain(`From the site's sign-up ${signup.reference}.`);

    // The same rule as a sale from the profile on the same day: the same terms and visits.
    const other = await newCustomer();
    const sold = await api('POST', `/api/admin/customers/${other.id}/agreements`, { planId: 'advanced', startDate: '2027-02-15', billing: 'yearly' });
    expect(sold.statusCode, sold.body).toBe(201);
    const soldAgreement: AgreementDetail = sold.json().agreement;
    const facts = (detail: AgreementDetail) => ({
      priceCents: detail.priceCents,
      currentTermEndsOn: detail.currentTermEndsOn,
      visits: detail.visits.map((visit) => ({ period: visit.period, dueFrom: visit.dueFrom, title: visit.title, status: visit.status })),
    });
    expect(facts(agreement)).toEqual(facts(soldAgreement));
    expect(agreement.visits.map((visit) => visit.period)).toEqual(['2027-spring']);

    const [lead] = await rows<{ status: string; customer_id: string }>(sql`select status, customer_id from estimate_requests where id = ${signup.leadId}`);
    expect(lead).toEqual({ status: 'completed', customer_id: confirmed.customerId });
    const [agreementLead] = await rows<{ lead_id: string }>(sql`select lead_id from maintenance_agreements where id = ${confirmed.agreementId}`);
    expect(agreementLead!.lead_id).toBe(signup.leadId);

    const emails = await rows<{ subject: string; text_body: string }>(sql`select subject, text_body from outbound_emails where related_id = ${signup.id} and kind = 'agreement_signup_confirmed'`);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe('Your Advanced maintenance plan is confirmed');
    expect(emails[0]!.text_body).toContain(`(${confirmed.agreementNumber}) is confirmed from 2027-02-15`);

    const audits = await rows<{ entity_type: string; action: string; actor_name: string }>(
      sql`select entity_type, action, actor_name from audit_log where entity_id in (${signup.id}, ${confirmed.customerId}, ${confirmed.agreementId}) order by occurred_at, id`,
    );
    expect(audits.map((entry) => `${entry.entity_type} ${entry.action}`)).toEqual(
      expect.arrayContaining(['agreement_signup created', 'customer created', 'agreement created', 'agreement_signup confirmed']),
    );
  });

  it('confirms a sign-up for an existing customer chosen by staff, making no new customer', async () => {
    const existing = await newCustomer({ name: 'Jordan Existing' });
    const signup = await submitted({ email: 'jordan.existing@example.com', planId: 'essential', billing: 'monthly' });
    const customersBefore = await rows(sql`select id from customers`);
    const response = await api('POST', `/api/admin/agreement-signups/${signup.id}/confirm`, { customer: { mode: 'existing', customerId: existing.id }, startDate: '2027-03-01' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().signup).toMatchObject({ status: 'confirmed', customerId: existing.id, customerName: 'Jordan Existing' });
    expect(await rows(sql`select id from customers`)).toHaveLength(customersBefore.length);
    const agreement = await agreementDetail(response.json().signup.agreementId);
    expect(agreement).toMatchObject({ customerId: existing.id, planId: 'essential', billing: 'monthly', startDate: '2027-03-01', status: 'active' });

    const gone = await api('POST', `/api/admin/agreement-signups/${(await submitted({ email: 'gone@example.com' })).id}/confirm`, {
      customer: { mode: 'existing', customerId: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f' },
    });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().error.details).toEqual([{ path: 'customer.customerId', message: 'The chosen customer no longer exists. Choose another or make a new one.' }]);
    expect((await pendingSignupByEmail('gone@example.com')).status).toBe('pending');
  });

  it('declines a sign-up with a reason, and needs one', async () => {
    const signup = await submitted({ email: 'declined@example.com' });
    const withoutReason = await api('POST', `/api/admin/agreement-signups/${signup.id}/decline`, { reason: '  ' });
    expect(withoutReason.statusCode).toBe(400);
    expect(withoutReason.json().error.details).toEqual([{ path: 'reason', message: 'Say why the sign-up is declined.' }]);

    const response = await api('POST', `/api/admin/agreement-signups/${signup.id}/decline`, { reason: 'Duplicate of a phone sale.' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().signup).toMatchObject({ status: 'declined', declineReason: 'Duplicate of a phone sale.', agreementId: null, decidedAt: expect.any(String) });
    const [lead] = await rows<{ status: string }>(sql`select status from estimate_requests where id = ${signup.leadId}`);
    expect(lead!.status).toBe('cancelled');
    const declined = await api('GET', '/api/admin/agreement-signups?status=declined');
    expect(declined.json().signups.map((item: AgreementSignup) => item.id)).toContain(signup.id);
    const [audit] = await rows<{ action: string; changes: Record<string, unknown> }>(sql`select action, changes from audit_log where entity_id = ${signup.id} and action = 'declined'`);
    expect(audit!.changes).toMatchObject({ status: ['pending', 'declined'], declineReason: [null, 'Duplicate of a phone sale.'] });
  });

  it('refuses without a session, for an unknown sign-up, and a second decision', async () => {
    const signup = await submitted({ email: 'refusals@example.com' });
    expect((await api('GET', '/api/admin/agreement-signups', undefined, 'nobody')).statusCode).toBe(401);
    expect((await api('POST', `/api/admin/agreement-signups/${signup.id}/confirm`, { customer: { mode: 'new' } }, 'nobody')).statusCode).toBe(401);
    expect((await api('POST', `/api/admin/agreement-signups/${signup.id}/decline`, { reason: 'x' }, 'nobody')).statusCode).toBe(401);

    for (const id of ['6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f', 'not-a-uuid']) {
      const unknown = await api('POST', `/api/admin/agreement-signups/${id}/confirm`, { customer: { mode: 'new' } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toBe('Plan sign-up not found.');
    }

    expect((await api('POST', `/api/admin/agreement-signups/${signup.id}/confirm`, { customer: { mode: 'new' } })).statusCode).toBe(200);
    const again = await api('POST', `/api/admin/agreement-signups/${signup.id}/confirm`, { customer: { mode: 'new' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This sign-up was already confirmed or declined.');
    expect((await api('POST', `/api/admin/agreement-signups/${signup.id}/decline`, { reason: 'Too late' })).statusCode).toBe(409);
    expect(await rows(sql`select id from maintenance_agreements where lead_id = ${signup.leadId}`)).toHaveLength(1);
  });
});
