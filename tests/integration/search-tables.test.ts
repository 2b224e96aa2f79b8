import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerListResponse } from '#shared/customer.ts';
import type { WorkOrderListResponse } from '#shared/work-order.ts';
import { countCap } from '#server/db/count-cap.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The staff searches read customer_search and work_order_search (migration 0028, decision 023-a),
// kept by triggers. These tests hold the kept rows to their definition through every kind of
// write, and the answers to the plain definition of each search (the spec's fields, substring, any
// case) written out over the base tables: a kept row that lags, or a match across two fields of
// the joined text, fails here.

let context: TestContext;
let cookie: string;

async function get<T>(url: string): Promise<T> {
  const response = await context.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** work_order_search as its definition computes it from the base tables, next to what is kept. */
async function expectWorkOrderSearchKept(): Promise<void> {
  const query = (from: string) =>
    context.database.query<Record<string, unknown>>(`select work_order_id, status, service_date::text, created_at::text, search_text from ${from} order by work_order_id`);
  const defined = await query(`(select w.id as work_order_id, w.status, w.service_date, w.created_at,
      lower(w.title || chr(31) || w.description || chr(31) || w.work_order_number || chr(31) || c.name || chr(31) || c.phone) as search_text
    from work_orders w join customers c on c.id = w.customer_id) as defined`);
  expect(await query('work_order_search')).toEqual(defined);
}

async function expectCustomerSearchKept(): Promise<void> {
  const kept = await context.database.query('select customer_id as id, sort_name, search_text from customer_search order by customer_id');
  const defined = await context.database.query(
    `select id, lower(name) as sort_name, lower(name || ' ' || phone || ' ' || coalesce(email, '') || ' ' || address) as search_text from customers order by id`,
  );
  expect(kept).toEqual(defined);
}

/** The work-order list's page as the spec defines the search: any of five fields contains the text, any case. */
async function expectedWorkOrders(text: string, status: string, page: number, pageSize: number): Promise<{ ids: string[]; total: number }> {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await context.database.query<{ id: string }>(
    `select w.id from work_orders w join customers c on c.id = w.customer_id
      where ($2 = 'all' or w.status = $2)
        and (w.title ilike $1 or w.description ilike $1 or w.work_order_number ilike $1 or c.name ilike $1 or c.phone ilike $1)
      order by w.service_date desc, w.created_at desc, w.id desc`,
    [pattern, status],
  );
  return { ids: rows.slice((page - 1) * pageSize, page * pageSize).map((row) => row.id), total: rows.length };
}

async function expectWorkOrderSearch(text: string, status = 'all', page = 1, pageSize = 25): Promise<WorkOrderListResponse> {
  const body = await get<WorkOrderListResponse>(
    `/api/admin/work-orders?search=${encodeURIComponent(text)}&status=${status}&page=${page}&pageSize=${pageSize}`,
  );
  const expected = await expectedWorkOrders(text, status, page, pageSize);
  expect(body.workOrders.map((order) => order.id), `${text} ${status} page ${page}`).toEqual(expected.ids);
  if (expected.total <= countCap) expect(body).toMatchObject({ total: expected.total, totalCapped: false });
  else expect(body).toMatchObject({ totalCapped: true });
  return body;
}

async function expectCustomerSearch(text: string, page = 1): Promise<CustomerListResponse> {
  const body = await get<CustomerListResponse>(`/api/admin/customers?search=${encodeURIComponent(text)}&page=${page}`);
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await context.database.query<{ id: string }>(
    `select id from customers where lower(name || ' ' || phone || ' ' || coalesce(email, '') || ' ' || address) like $1 order by lower(name), id`,
    [pattern],
  );
  expect(body.customers.map((customer) => customer.id), `${text} page ${page}`).toEqual(rows.slice((page - 1) * 50, page * 50).map((row) => row.id));
  if (rows.length <= countCap) expect(body).toMatchObject({ total: rows.length, totalCapped: false });
  return body;
}

let ada: string;
let bob: string;

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const made = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, email, address) values
       ('Ada Quillfeather', '(843) 555-0171', 'ada@example.com', '1 Harbor Rd'),
       ('Bob Stormwright', '(843) 555-0172', null, '2 Marsh Ln')
     returning id`,
  );
  [ada, bob] = made.map((row) => row.id) as [string, string];
  // 60 work orders in one statement (the insert trigger's bulk path), spread over dates and statuses.
  await context.database.query(
    `insert into work_orders (customer_id, title, description, service_date, status)
     select case when n % 3 = 0 then $2::uuid else $1::uuid end,
            case when n % 4 = 0 then 'Blower tune-up ' || n else 'Coil cleaning ' || n end,
            case when n % 5 = 0 then 'Replace 50% of the filters_' || n else 'Check the drain line' end,
            date '2026-03-01' + (n % 17), case when n % 2 = 0 then 'scheduled' else 'pending' end
       from generate_series(1, 60) as n`,
    [ada, bob],
  );
  // One by one too (the statement trigger on a one-row insert).
  await context.database.query(`insert into work_orders (customer_id, title, description, service_date) values ($1, 'Ends with up', 'Annual visit', '2026-04-01')`, [ada]);
});
afterAll(() => context?.close());

describe('the kept search rows', () => {
  it('follow inserts', async () => {
    await expectWorkOrderSearchKept();
    await expectCustomerSearchKept();
  });

  it('follow edits of every searched field, the order keys and the status', async () => {
    await context.database.query(`update work_orders set title = 'Heat pump swap' where title = 'Coil cleaning 7'`);
    await context.database.query(`update work_orders set description = 'Frozen evaporator' where title = 'Coil cleaning 11'`);
    await context.database.query(`update work_orders set status = 'completed', service_date = date '2027-01-05' where title like 'Blower tune-up 1_'`);
    await context.database.query(`update work_orders set customer_id = $1 where title = 'Coil cleaning 13'`, [bob]);
    await context.database.query(`update work_orders set work_order_number = 'SPECIAL-7' where title = 'Heat pump swap'`);
    // An update that touches no searched field leaves the kept rows as they are (and must not break them).
    await context.database.query(`update work_orders set notes = 'gate code 1234'`);
    await expectWorkOrderSearchKept();
  });

  it("follow a customer's new name, phone, e-mail and address into both tables", async () => {
    await context.database.query(`update customers set name = 'Ada Lovelace-Quill', phone = '(843) 555-0199' where id = $1`, [ada]);
    await context.database.query(`update customers set email = 'bob@example.com', address = '9 Tidewater Way' where id = $1`, [bob]);
    await context.database.query(`update customers set latitude = 32.2, longitude = -80.7`);
    await expectCustomerSearchKept();
    await expectWorkOrderSearchKept();
  });

  it('follow deletes of work orders and customers', async () => {
    await context.database.query(`delete from work_orders where title like 'Coil cleaning 2_'`);
    const [lone] = await context.database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Lone Customer', '(843) 555-0100', '3 Pine St') returning id`);
    await context.database.query('delete from customers where id = $1', [lone!.id]);
    await expectWorkOrderSearchKept();
    await expectCustomerSearchKept();
  });
});

describe('the work-order search', () => {
  it('matches each of the five fields, in any case, as the plain definition does', async () => {
    for (const text of ['tune-up', 'BLOWER', 'frozen', 'lovelace', '555-0199', 'special-7', 'WO-', 'drain line', 'ada', 'stormwright']) await expectWorkOrderSearch(text);
  });

  it('never matches across two fields of the joined text', async () => {
    // "Ends with up" + "Annual visit": the title's end and the description's start are not one text.
    await expectWorkOrderSearch('up annual');
    await expectWorkOrderSearch('upannual');
    expect((await get<WorkOrderListResponse>('/api/admin/work-orders?search=up%20annual')).total).toBe(0);
  });

  it('takes %, _ and \\ literally', async () => {
    for (const text of ['50%', 'filters_1', '%', '_', '\\']) await expectWorkOrderSearch(text);
  });

  it('filters by status and pages on', async () => {
    for (const status of ['all', 'scheduled', 'pending', 'completed']) {
      for (const page of [1, 2, 3]) await expectWorkOrderSearch('c', status, page, 10);
    }
  });

  it('says the total of a page past the end', async () => {
    const body = await expectWorkOrderSearch('coil', 'all', 40, 25);
    expect(body.workOrders).toEqual([]);
  });
});

describe('the customer directory search', () => {
  it('matches name, phone, e-mail and address, in any case, as before', async () => {
    for (const text of ['lovelace', 'QUILL', '555-01', 'bob@', 'tidewater', 'a', 'zzz', '%']) await expectCustomerSearch(text);
    expect((await expectCustomerSearch('a', 2)).customers).toEqual([]);
  });
});
