import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerListResponse } from '#shared/customer.ts';
import type { LeadListResponse } from '#shared/lead.ts';
import { countCap } from '#server/db/count-cap.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The customer directory's and the leads list's totals stop counting past the cap (issue 17): more
// matches than countCap read as "at least", with totalCapped; fewer are exact as before.

let context: TestContext;
let cookie: string;

/** More customers named "Capword ..." than the cap, and a few named "Fewword ...", in one statement each. */
const manyCustomers = countCap + 60;
const fewCustomers = 7;
/** More estimate requests mentioning "capleak" than the cap. */
const manyLeads = countCap + 5;

async function get<T>(url: string): Promise<T> {
  const response = await context.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const customers = (query: string) => get<CustomerListResponse>(`/api/admin/customers?${query}`);
const leads = (query: string) => get<LeadListResponse>(`/api/admin/leads?${query}`);

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  await context.database.query(
    `insert into customers (name, phone, address)
     select 'Capword ' || lpad(n::text, 5, '0'), '(843) 555-' || lpad((n % 10000)::text, 4, '0'), n || ' Cap Rd' from generate_series(1, $1) as n`,
    [manyCustomers],
  );
  await context.database.query(
    `insert into customers (name, phone, address)
     select 'Fewword ' || n, '(843) 555-0001', n || ' Few Rd' from generate_series(1, $1) as n`,
    [fewCustomers],
  );
  await context.database.query(
    `insert into estimate_requests (name, email, phone, address, service_type, description)
     select 'Lead ' || n, 'lead' || n || '@example.com', '(843) 555-0002', n || ' Lead Rd', 'ac-repair', 'capleak number ' || n
       from generate_series(1, $1) as n`,
    [manyLeads],
  );
});
afterAll(() => context?.close());

describe('the customer directory total', () => {
  it('stops at the cap for a common word, and says so', async () => {
    const first = await customers('search=capword');
    expect(first).toMatchObject({ total: countCap, totalCapped: true, page: 1, pageSize: 50 });
    expect(first.customers.map((customer) => customer.name)).toEqual(Array.from({ length: 50 }, (_, index) => `Capword ${String(index + 1).padStart(5, '0')}`));
  });

  it('stops at the cap without a search too', async () => {
    expect(await customers('')).toMatchObject({ total: countCap, totalCapped: true });
  });

  it('is exact below the cap', async () => {
    expect(await customers('search=fewword&pageSize=3')).toMatchObject({ total: fewCustomers, totalCapped: false });
  });

  it('pages past the cap: a full page there reads as at least its last row, the last page as the exact total', async () => {
    const deep = await customers('search=capword&page=21&pageSize=50');
    expect(deep).toMatchObject({ total: 21 * 50, totalCapped: true, page: 21 });
    expect(deep.customers[0]!.name).toBe('Capword 01001');
    expect(deep.customers).toHaveLength(50);
    const last = await customers('search=capword&page=22&pageSize=50');
    expect(last).toMatchObject({ total: manyCustomers, totalCapped: false });
    expect(last.customers.map((customer) => customer.name)).toEqual(Array.from({ length: 10 }, (_, index) => `Capword ${String(1051 + index).padStart(5, '0')}`));
    const beyond = await customers('search=capword&page=40&pageSize=50');
    expect(beyond).toMatchObject({ customers: [], total: countCap, totalCapped: true });
  });
});

describe('the leads list total', () => {
  it('stops at the cap for a common word, and says so', async () => {
    const first = await leads('search=capleak&pageSize=25');
    expect(first).toMatchObject({ total: countCap, totalCapped: true });
    expect(first.leads).toHaveLength(25);
    expect(await leads('filter=all&pageSize=25')).toMatchObject({ total: countCap, totalCapped: true });
  });

  it('is exact below the cap, and on the last page', async () => {
    // "capleak number 10" is in 10, 100 to 109 and 1000 to 1005: 17 leads, 4 pages of 5.
    expect(await leads('search=capleak%20number%2010&pageSize=5')).toMatchObject({ total: 17, totalCapped: false });
    const last = await leads(`search=capleak&pageSize=100&page=11`);
    expect(last).toMatchObject({ total: manyLeads, totalCapped: false });
    expect(last.leads).toHaveLength(manyLeads - 1000);
  });
});
