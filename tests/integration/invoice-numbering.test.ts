import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceDetailResponseSchema } from '#shared/invoice.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Gapless invoice numbers under concurrency (decision 024-c): 20 drafts issued at once through the
// HTTP API get INV-000001 .. INV-000020 with no gap and no duplicate, and an issue that fails after
// taking its number gives it back. Runs on PGlite, and on PostgreSQL (a database of its own) with
// TEST_DATABASE_URL, where the 20 issues run on separate pool connections and queue on the counter's row lock.

let context: TestContext;
let cookie: string;
let customerId: string;

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  const [row] = await context.database.query<{ id: string }>(`insert into customers (name, phone, address) values ('Number Test', '(843) 555-0300', '1 Counter Ln') returning id`);
  customerId = row!.id;
  // An issue that fails after its number was taken: the update that freezes the invoice raises for this name.
  await context.database.query(`
    create function refuse_marked_issue() returns trigger language plpgsql as $$
    begin
      if new.invoice_number is not null and new.billing_name = 'Refuse Me' then
        raise exception 'refused for the test';
      end if;
      return new;
    end $$`);
  await context.database.query(`create trigger refuse_marked_issue before update on invoices for each row execute function refuse_marked_issue()`);
});
afterAll(() => context?.close());

async function createDraft(): Promise<string> {
  const response = await context.app.inject({
    method: 'POST',
    url: '/api/admin/invoices',
    headers: { cookie },
    payload: { customerId, lines: [{ name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900 }] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return invoiceDetailResponseSchema.parse(response.json()).invoice.id;
}

const issue = (id: string) => context.app.inject({ method: 'POST', url: `/api/admin/invoices/${id}/issue`, headers: { cookie } });

/** The issued invoices' numbers, ascending. */
async function numbers(): Promise<number[]> {
  const rows = await context.database.query<{ invoice_number: string }>(`select invoice_number from invoices where kind = 'invoice' and invoice_number is not null`);
  return rows.map((row) => Number(row.invoice_number.slice(4))).sort((a, b) => a - b);
}

describe('invoice numbers', () => {
  it('20 invoices issued at once get 1..20: no gaps, no duplicates', async () => {
    const drafts = await Promise.all(Array.from({ length: 20 }, () => createDraft()));
    const responses = await Promise.all(drafts.map(issue));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    const given = responses.map((response) => invoiceDetailResponseSchema.parse(response.json()).invoice.invoiceNumber!);
    expect(new Set(given).size).toBe(20);
    expect(given.every((number) => /^INV-\d{6}$/.test(number))).toBe(true);
    expect(await numbers()).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it('an issue rolled back after taking its number leaves no gap, even among concurrent issues', async () => {
    // The customer is renamed so the bill-to copied at issue trips the trigger for the marked draft only.
    const [marked] = await context.database.query<{ id: string }>(
      `insert into customers (name, phone, address) values ('Refuse Me', '(843) 555-0301', '2 Counter Ln') returning id`,
    );
    const failing = await context.app.inject({
      method: 'POST',
      url: '/api/admin/invoices',
      headers: { cookie },
      payload: { customerId: marked!.id, lines: [{ name: 'Diagnostic visit', quantityMilli: 1000, unitPriceCents: 8900 }] },
    });
    const failingId = invoiceDetailResponseSchema.parse(failing.json()).invoice.id;
    const others = await Promise.all(Array.from({ length: 5 }, () => createDraft()));
    const [refused, ...issued] = await Promise.all([issue(failingId), ...others.map(issue)]);
    expect(refused!.statusCode).toBe(500);
    expect(issued.map((response) => response.statusCode)).toEqual(Array(5).fill(200));
    const [row] = await context.database.query<{ status: string; invoice_number: string | null }>('select status, invoice_number from invoices where id = $1', [failingId]);
    expect(row).toEqual({ status: 'draft', invoice_number: null });
    expect(await numbers()).toEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    const [counter] = await context.database.query<{ next_number: string }>(`select next_number from document_counters where kind = 'invoice'`);
    expect(Number(counter!.next_number)).toBe(26);
  });
});
