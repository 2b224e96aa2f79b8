import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { technicians } from '#server/db/schema/index.ts';
import { createStaff, createTechnicianStaff, createTestApp, signIn, testPassword, type TestContext } from '#tests/support/test-app.ts';

/**
 * Who may reach invoices, credit notes and payments (decision 024-g): no anonymous caller (401) and
 * no technician (403) reaches any of their routes, found from the routes the app registers, not a
 * list kept by hand; a dispatcher reaches all but void and refund (admins only); and none of the
 * refused calls changes a row.
 */

let context: TestContext;
const routes: { method: string; url: string }[] = [];
const cookies = { admin: '', dispatcher: '', technician: '' };
let invoiceId = '';
let paymentId = '';

beforeAll(async () => {
  context = await createTestApp({
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) routes.push({ method, url: route.url });
    },
  });
  const [technician] = await context.database.db.insert(technicians).values([{ name: 'Mike Johnson' }]).returning({ id: technicians.id });
  await createStaff(context.database, 'admin@example.com', testPassword, 'admin');
  await createStaff(context.database, 'dispatch@example.com', testPassword, 'dispatcher');
  await createTechnicianStaff(context.database, technician!.id, 'mike.tech@example.com');
  cookies.admin = await signIn(context.app, 'admin@example.com');
  cookies.dispatcher = await signIn(context.app, 'dispatch@example.com');
  cookies.technician = await signIn(context.app, 'mike.tech@example.com');
  const [customer] = await context.database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Role Test', '(843) 555-0500', '5 Role Rd') returning id`);
  const created = await context.app.inject({
    method: 'POST',
    url: '/api/admin/invoices',
    headers: { cookie: cookies.admin },
    payload: { customerId: customer!.id, lines: [{ name: 'Visit', quantityMilli: 1000, unitPriceCents: 10_000 }] },
  });
  invoiceId = created.json().invoice.id;
  await context.app.inject({ method: 'POST', url: `/api/admin/invoices/${invoiceId}/issue`, headers: { cookie: cookies.admin } });
  const paid = await context.app.inject({
    method: 'POST',
    url: `/api/admin/invoices/${invoiceId}/payments`,
    headers: { cookie: cookies.admin },
    payload: { method: 'cash', amountCents: 4000, receivedOn: '2026-11-27' },
  });
  paymentId = paid.json().payment.id;
});
afterAll(() => context.close());

const invoiceRoutes = () => routes.filter((route) => route.url.startsWith('/api/admin') && route.url.includes('invoice') && route.method !== 'HEAD');

/** A concrete address: the real invoice and payment, so a refusal is the guard's and not a 404. */
const concrete = (url: string) => url.replace(':id', invoiceId).replace(':paymentId', paymentId);

async function call(method: string, url: string, cookie?: string) {
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(method);
  return context.app.inject({
    method: method as InjectOptions['method'],
    url,
    headers: cookie ? { cookie } : {},
    ...(hasBody ? { payload: { reason: 'Not allowed', amountCents: 1000, receivedOn: '2026-11-27', method: 'cash', fullCredit: true, lines: [] } } : {}),
  });
}

async function snapshot() {
  const [row] = await context.database.query<{ invoices: string; payments: string; lines: string; paid: string; status: string }>(
    `select (select count(*) from invoices)::text as invoices, (select count(*) from payments)::text as payments, (select count(*) from invoice_lines)::text as lines,
            (select paid_cents from invoices where id = $1)::text as paid, (select status from invoices where id = $1) as status`,
    [invoiceId],
  );
  return row;
}

describe('invoice routes', () => {
  it('are found from the registered routes', () => {
    expect(invoiceRoutes().map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/admin/invoices',
        'GET /api/admin/invoices/summary',
        'GET /api/admin/invoices/:id',
        'PUT /api/admin/invoices/:id',
        'POST /api/admin/invoices/:id/issue',
        'POST /api/admin/invoices/:id/void',
        'POST /api/admin/invoices/:id/payments',
        'POST /api/admin/invoices/:id/payments/:paymentId/refunds',
        'POST /api/admin/invoices/:id/credit-notes',
        'POST /api/admin/invoices/:id/apply-credit',
        'POST /api/admin/work-orders/:id/invoice',
      ]),
    );
  });

  it('refuse an anonymous caller (401) and a technician (403), changing nothing', async () => {
    const before = await snapshot();
    for (const route of invoiceRoutes()) {
      const anonymous = await call(route.method, concrete(route.url));
      expect(anonymous.statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
      const technician = await call(route.method, concrete(route.url), cookies.technician);
      expect(technician.statusCode, `${route.method} ${route.url} technician`).toBe(403);
      expect(JSON.stringify(technician.json())).not.toContain('Role Test');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('keep void and refund for admins: a dispatcher is refused (403), changing nothing', async () => {
    const before = await snapshot();
    expect((await call('POST', `/api/admin/invoices/${invoiceId}/void`, cookies.dispatcher)).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/invoices/${invoiceId}/payments/${paymentId}/refunds`, cookies.dispatcher)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('let a dispatcher read the list, the figures and an invoice, and record a payment', async () => {
    expect((await call('GET', '/api/admin/invoices', cookies.dispatcher)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/invoices/summary', cookies.dispatcher)).statusCode).toBe(200);
    expect((await call('GET', `/api/admin/invoices/${invoiceId}`, cookies.dispatcher)).statusCode).toBe(200);
    const paid = await call('POST', `/api/admin/invoices/${invoiceId}/payments`, cookies.dispatcher);
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await snapshot())!.paid).toBe('5000');
  });
});
