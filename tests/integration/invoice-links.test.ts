import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentLineInput } from '#shared/document-line.ts';
import { invoiceDetailResponseSchema } from '#shared/invoice.ts';
import { invoiceIssueResponseSchema, invoiceSendResponseSchema, publicInvoiceResponseSchema } from '#shared/invoice-link.ts';
import { formatCents } from '#shared/money.ts';
import { createDocumentLinkRepository } from '#server/modules/document-links/document-links.repository.ts';
import { createDocumentLinkService, invalidLinkMessage } from '#server/modules/document-links/index.ts';
import { publicInvoiceLimitPerMinute } from '#server/app.ts';
import { extractPdfText, normaliseSpace } from '#tests/support/pdf-text.ts';
import { customerLinkFromOutbox } from '#tests/support/outbox-links.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The customer's side of an invoice (issue 20, decision 024-h) through the HTTP API on a real
// database: issuing sends it (a real link made by the messaging dispatcher), the link opens the
// document and its PDF without a session, every refusal is the same 404, and the office's PDF.

let context: TestContext;
let admin: string;
let dispatcher: string;
let technician: string;
let addressCount = 0;
/** A fresh client address per request group, so the rate limit counts only where a test means it to. */
const address = () => `10.20.${Math.floor(addressCount / 250)}.${(addressCount++ % 250) + 1}`;

beforeAll(async () => {
  context = await createTestApp({ env: { COMPANY_SITE_URL: 'https://comfort.example', COMPANY_PHONE: '(843) 555-0100' } });
  await createStaff(context.database);
  await createStaff(context.database, 'dispatch@example.com', undefined, 'dispatcher');
  const [tech] = await context.database.query<{ id: string }>(`insert into technicians (name) values ('Terry Tech') returning id`);
  await createTechnicianStaff(context.database, tech!.id);
  admin = await signIn(context.app);
  dispatcher = await signIn(context.app, 'dispatch@example.com');
  technician = await signIn(context.app, 'tech@example.com');
});
afterAll(() => context?.close());

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, payload?: unknown, cookie = admin) =>
  context.app.inject({ method, url, headers: { cookie }, remoteAddress: address(), ...(payload === undefined ? {} : { payload: payload as object }) });
const open = (token: string, suffix = '', remoteAddress = address()) => context.app.inject({ method: 'GET', url: `/api/public/invoices/${token}${suffix}`, remoteAddress });

let customerCount = 0;
async function customer(options: { name?: string; email?: string | null } = {}): Promise<string> {
  customerCount += 1;
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, address, city, state, zip, email) values ($1, $2, $3, 'Bluffton', 'SC', '29910', $4) returning id`,
    [
      options.name ?? 'Dana Whitfield',
      `(843) 555-03${String(customerCount).padStart(2, '0')}`,
      `${customerCount} May River Rd`,
      options.email === undefined ? `c${customerCount}@example.com` : options.email,
    ],
  );
  return row!.id;
}

const line = (values: Partial<DocumentLineInput> = {}): DocumentLineInput => ({ name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900, ...values });

async function issuedInvoice(options: { name?: string; email?: string | null; lines?: DocumentLineInput[] } = {}) {
  const created = await call('POST', '/api/admin/invoices', { customerId: await customer(options), lines: options.lines ?? [line()] });
  expect(created.statusCode, created.body).toBe(201);
  const id = invoiceDetailResponseSchema.parse(created.json()).invoice.id;
  const issued = await call('POST', `/api/admin/invoices/${id}/issue`, undefined, dispatcher);
  expect(issued.statusCode, issued.body).toBe(200);
  return invoiceIssueResponseSchema.parse(issued.json());
}

/** Sends what is due (the messaging runner's step) and reads the invoice link from the e-mail handed to the outbox. */
async function linkFromEmail(recipient: string): Promise<string> {
  await context.app.messaging.dispatchDue();
  return customerLinkFromOutbox(context, { recipient, kind: 'message_invoice_sent', site: 'https://comfort.example', documentType: 'invoice' });
}

const links = () => createDocumentLinkService({ repository: createDocumentLinkRepository(context.database.db) });

describe('sending', () => {
  it('issuing queues the invoice e-mail in the same step and says which channels were used or skipped', async () => {
    const answer = await issuedInvoice({ email: 'dana.send@example.com' });
    expect(answer.delivery).toEqual({ queued: ['email'], skipped: [{ channel: 'sms', reason: 'the customer has not agreed to texts' }] });
    const token = await linkFromEmail('dana.send@example.com');
    const response = await open(token);
    expect(response.statusCode, response.body).toBe(200);
    expect(publicInvoiceResponseSchema.parse(response.json()).document.number).toBe(answer.invoice.invoiceNumber);
    const history = await context.database.query<{ action: string }>(`select action from audit_log where entity_id = $1 and action = 'send_queued'`, [answer.invoice.id]);
    expect(history).toHaveLength(1);
  });

  it('a customer without an e-mail gets nothing, and the answer says why', async () => {
    const answer = await issuedInvoice({ email: null });
    expect(answer.delivery?.queued).toEqual([]);
    expect(answer.delivery?.skipped).toContainEqual({ channel: 'email', reason: 'the customer has no e-mail address' });
  });

  it('"Send again" queues another e-mail with a new link; a draft or a void invoice is refused; technicians are refused', async () => {
    const answer = await issuedInvoice({ email: 'again@example.com' });
    const first = await linkFromEmail('again@example.com');
    const again = await call('POST', `/api/admin/invoices/${answer.invoice.id}/send`, undefined, dispatcher);
    expect(again.statusCode, again.body).toBe(200);
    expect(invoiceSendResponseSchema.parse(again.json()).delivery.queued).toEqual(['email']);
    const second = await linkFromEmail('again@example.com');
    expect(second).not.toBe(first);
    expect((await open(first)).statusCode).toBe(200);
    expect((await open(second)).statusCode).toBe(200);

    expect((await call('POST', `/api/admin/invoices/${answer.invoice.id}/send`, undefined, technician)).statusCode).toBe(403);
    const draft = await call('POST', '/api/admin/invoices', { customerId: await customer(), lines: [line()] });
    const draftId = invoiceDetailResponseSchema.parse(draft.json()).invoice.id;
    expect((await call('POST', `/api/admin/invoices/${draftId}/send`)).statusCode).toBe(409);
    const voided = await call('POST', `/api/admin/invoices/${answer.invoice.id}/void`, { reason: 'Entered twice' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await call('POST', `/api/admin/invoices/${answer.invoice.id}/send`)).statusCode).toBe(409);
  });
});

describe("the customer's link", () => {
  it('shows the document, the balance and how to pay (no online payment configured), with no-referrer and noindex', async () => {
    const answer = await issuedInvoice({ name: 'Marisol Grant', lines: [line(), line({ name: 'Capacitor', unitPriceCents: 14500 })] });
    const { token } = await links().create(context.database.db, { documentType: 'invoice', documentId: answer.invoice.id, linkVersion: 1, validDays: 180 });
    const response = await open(token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(String(response.headers['x-robots-tag'])).toContain('noindex');
    const body = publicInvoiceResponseSchema.parse(response.json());
    expect(body.document.customer.name).toBe('Marisol Grant');
    expect(body.document.totalCents).toBe(23400);
    expect(body.balanceCents).toBe(23400);
    expect(body.status).toBe('sent');
    expect(body.payOnline).toBeNull();
    expect(body.howToPay).toContain('(843) 555-0100');
    expect(body.howToPay).toContain(answer.invoice.invoiceNumber!);
    // Nothing of the office's: no ids, no history, no other customer.
    expect(response.body).not.toContain(answer.invoice.id);
    expect(response.body).not.toContain(answer.invoice.customerId);
    expect(response.body).not.toContain('history');
  });

  it('serves the same document as a PDF', async () => {
    const answer = await issuedInvoice({ name: 'Owen Pruitt' });
    const { token } = await links().create(context.database.db, { documentType: 'invoice', documentId: answer.invoice.id, linkVersion: 1, validDays: 180 });
    const response = await open(token, '/pdf');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const text = normaliseSpace((await extractPdfText(response.rawPayload)).pages.map((page) => page.text).join(' '));
    expect(text).toContain(answer.invoice.invoiceNumber!);
    expect(text).toContain('Owen Pruitt');
    expect(text).toContain(formatCents(8900));
  });

  it('refuses unknown, tampered, expired, revoked and quote links with the same 404, and never shows another invoice', async () => {
    const mine = await issuedInvoice({ name: 'Customer Mine' });
    const other = await issuedInvoice({ name: 'Customer Other' });
    const { token } = await links().create(context.database.db, { documentType: 'invoice', documentId: mine.invoice.id, linkVersion: 1, validDays: 180 });
    const good = await open(token);
    expect(good.statusCode).toBe(200);
    expect(good.body).not.toContain('Customer Other');
    expect(good.body).not.toContain(other.invoice.invoiceNumber!);

    const past = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    const expired = await createDocumentLinkService({ repository: createDocumentLinkRepository(context.database.db), now: () => past }).create(context.database.db, {
      documentType: 'invoice',
      documentId: mine.invoice.id,
      linkVersion: 1,
      validDays: 1,
    });
    const quoteKind = await links().create(context.database.db, { documentType: 'quote', documentId: mine.invoice.id, linkVersion: 1, validDays: 30 });
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const refusals = [
      await open('x'.repeat(43)),
      await open('not-a-token'),
      await open(tampered),
      await open(expired.token),
      await open(quoteKind.token),
      await open(tampered, '/pdf'),
    ];
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(404);
      expect(refusal.json()).toEqual({ error: { code: 'NOT_FOUND', message: invalidLinkMessage } });
    }

    // Revoked: the document's link version moved on.
    await context.database.query('update invoices set link_version = link_version + 1 where id = $1', [mine.invoice.id]);
    const revoked = await open(token);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.json()).toEqual({ error: { code: 'NOT_FOUND', message: invalidLinkMessage } });
  });

  it('a void invoice shows as void, with nothing to pay', async () => {
    const answer = await issuedInvoice();
    const { token } = await links().create(context.database.db, { documentType: 'invoice', documentId: answer.invoice.id, linkVersion: 1, validDays: 180 });
    const voided = await call('POST', `/api/admin/invoices/${answer.invoice.id}/void`, { reason: 'Billed to the wrong customer' });
    expect(voided.statusCode, voided.body).toBe(200);
    const body = publicInvoiceResponseSchema.parse((await open(token)).json());
    expect(body.status).toBe('void');
    expect(body.document.statusLabel).toBe('Void');
    expect(body.payOnline).toBeNull();
    const checkout = await context.app.inject({ method: 'POST', url: `/api/public/invoices/${token}/checkout`, remoteAddress: address() });
    expect(checkout.statusCode).toBe(409);
  });

  it('has no Stripe webhook when online payment is not configured', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/public/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{"id":"evt_1","object":"event","type":"checkout.session.completed"}',
      remoteAddress: address(),
    });
    expect(response.statusCode).toBe(404);
    expect(await context.database.query('select 1 from payment_events')).toHaveLength(0);
  });

  it('rate-limits the public invoice routes per client address', async () => {
    const client = '10.99.0.1';
    for (let index = 0; index < publicInvoiceLimitPerMinute; index += 1) {
      expect((await open('y'.repeat(43), '', client)).statusCode).toBe(404);
    }
    expect((await open('y'.repeat(43), '', client)).statusCode).toBe(429);
    // Another address is not held back.
    expect((await open('y'.repeat(43), '', '10.99.0.2')).statusCode).toBe(404);
  });
});

describe("the office's PDF", () => {
  it('downloads the invoice as a PDF with its number and total; technicians 403, anonymous 401', async () => {
    const answer = await issuedInvoice({ name: 'Priya Castellanos', lines: [line({ unitPriceCents: 123456 })] });
    const url = `/api/admin/invoices/${answer.invoice.id}/pdf`;
    const response = await call('GET', url, undefined, dispatcher);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${answer.invoice.invoiceNumber}.pdf"`);
    const text = normaliseSpace((await extractPdfText(response.rawPayload)).pages.map((page) => page.text).join(' '));
    expect(text).toContain(answer.invoice.invoiceNumber!);
    expect(text).toContain(formatCents(123456));
    expect(text).toContain('Priya Castellanos');

    expect((await call('GET', url, undefined, technician)).statusCode).toBe(403);
    expect((await context.app.inject({ method: 'GET', url, remoteAddress: address() })).statusCode).toBe(401);
  });
});
