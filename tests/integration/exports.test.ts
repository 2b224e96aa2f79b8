import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { exportPath } from '#shared/exports.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// The CSV downloads of Settings > Export & backup on a real database: contents, headers, quoting,
// formula neutralisation, and 100,000 work orders streamed over a real socket.
let context: TestContext;
let cookie: string;
let today: string;

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  today = todayIn(context.config.businessTimeZone);
});
afterAll(async () => {
  await context?.close();
});

/** RFC 4180 as a spreadsheet reads it: records of fields, quotes doubled inside quoted fields. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let index = 0;
  let isQuoted = false;
  while (index < text.length) {
    const char = text[index]!;
    if (isQuoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') isQuoted = false;
      else field += char;
      index += 1;
      continue;
    }
    if (char === '"') isQuoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else if (char === '\n' || char === '\r') {
      throw new Error(`bare line break at ${index}: records must end with CRLF`);
    } else field += char;
    index += 1;
  }
  if (field !== '' || record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

/** The records as objects keyed by the header. */
function tableOf(body: string): Record<string, string>[] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(body.slice(1));
  return rows.map((row) => {
    expect(row).toHaveLength(header!.length);
    return Object.fromEntries(header!.map((name, index) => [name, row[index]!]));
  });
}

async function download(kind: Parameters<typeof exportPath>[0]) {
  const response = await context.app.inject({ method: 'GET', url: exportPath(kind), headers: { cookie } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toBe(`attachment; filename="${kind}-${today}.csv"`);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.body;
}

async function insertCustomer(values: { name: string; address?: string; notes?: string | null; createdAt: string; email?: string }): Promise<string> {
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, email, address, city, state, zip, notes, created_at, updated_at)
     values ($1, '(843) 555-0100', $2, $3, 'Bluffton', 'SC', '29910', $4, $5, $5) returning id`,
    [values.name, values.email ?? null, values.address ?? '1 Main St', values.notes ?? null, values.createdAt],
  );
  return row!.id;
}

describe('GET /api/admin/settings/exports/*.csv', () => {
  let tricky: string;
  let plain: string;

  beforeAll(async () => {
    tricky = await insertCustomer({
      name: '=HYPERLINK("http://evil.example","Click")',
      address: '27 Calhoun Street, Suite "B"',
      notes: 'Gate code 1234\nDog in the yard',
      email: '@attacker.example',
      createdAt: '2026-01-02T15:00:00.123456Z',
    });
    plain = await insertCustomer({ name: 'José Núñez', createdAt: '2026-01-02T15:00:00.123457Z' });
    await context.database.query(
      `insert into equipment (customer_id, equipment_type, location, brand, model, serial_number, install_date, warranty_status, created_at)
       values ($1, 'Heat pump', 'side yard', 'Carrier', '25HCB6', 'SN-1', '2021-05-03', 'active', '2026-01-03T00:00:00Z'),
              ($1, 'Air handler', 'attic', 'Trane', null, null, null, null, '2026-01-04T00:00:00Z')`,
      [tricky],
    );
    const [technician] = await context.database.query<{ id: string }>(`insert into technicians (name, color) values ('Mike Johnson', '#112233') returning id`);
    await context.database.query(
      `insert into work_orders (customer_id, title, description, service_date, status, technician_id, scheduled_start_time, scheduled_end_time, created_at)
       values ($1, '+Tune-up, spring', 'Line one\r\nline two', '2026-03-01', 'scheduled', $2, '09:00', '10:30', '2026-02-01T10:00:00Z'),
              ($3, 'No-cool call', '', '2026-03-02', 'pending', null, null, null, '2026-02-01T10:00:01Z')`,
      [tricky, technician!.id, plain],
    );
    await context.database.query(
      `insert into estimate_requests (name, email, phone, address, service_type, description, status, priority, created_at)
       values ('-Mallory', 'm@example.com', '(843) 555-0111', '12 Oak St, Hilton Head Island, SC 29926', 'maintenance', 'Says "hi"', 'pending', 'urgent', '2026-04-01T12:00:00Z')`,
    );
    await context.database.query(
      `insert into ai_leads (customer_id, conversation_id, lead_score, urgency, service_type, status, notes, created_at)
       values ($1, 'chat-1', 8, 'high', 'repair', 'new', 'Unit blowing warm air', '2026-04-02T12:00:00Z')`,
      [plain],
    );
  });

  it('customers: one row per customer in creation order, equipment counted and summarised, values neutralised and quoted', async () => {
    const body = await download('customers');
    const rows = tableOf(body);
    expect(rows.map((row) => row['Customer ID'])).toEqual([tricky, plain]);
    const [first, second] = rows;
    expect(first!.Name).toBe(`'=HYPERLINK("http://evil.example","Click")`);
    expect(first!.Email).toBe(`'@attacker.example`);
    expect(first!.Address).toBe('27 Calhoun Street, Suite "B"');
    expect(first!.Notes).toBe('Gate code 1234\nDog in the yard');
    expect(first!['Equipment count']).toBe('2');
    expect(first!.Equipment).toBe('Heat pump (side yard): Carrier 25HCB6, serial SN-1, installed 2021-05-03, warranty active | Air handler (attic): Trane');
    expect(first!['Created (America/New_York)']).toBe('2026-01-02 10:00');
    expect(second!.Name).toBe('José Núñez');
    expect(second!['Equipment count']).toBe('0');
    expect(second!.Equipment).toBe('');
    // The raw text: quotes doubled, the whole field quoted; the header line first.
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(body.split('\r\n')[0]).toMatch(/^\uFEFFCustomer ID,Name,Type,Phone,Email,/);
  });

  it('work orders: with the customer and technician names', async () => {
    const rows = tableOf(await download('work-orders'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      Title: `'+Tune-up, spring`,
      Status: 'scheduled',
      'Service date': '2026-03-01',
      'Scheduled start': '09:00',
      'Scheduled end': '10:30',
      Technician: 'Mike Johnson',
      Customer: `'=HYPERLINK("http://evil.example","Click")`,
      'Customer address': '27 Calhoun Street, Suite "B", Bluffton, SC 29910',
      Description: 'Line one\r\nline two',
      'Created (America/New_York)': '2026-02-01 05:00',
    });
    expect(rows[0]!['Work order']).toMatch(/^WO-\d+$/);
    expect(rows[1]).toMatchObject({ Title: 'No-cool call', Technician: '', Customer: 'José Núñez', Status: 'pending' });
  });

  it('work orders: the service address columns come last, and the job address is where the job happens', async () => {
    const body = await download('work-orders');
    const header = body.slice(1).split('\r\n')[0]!;
    expect(header.endsWith(',Work order ID,Service address,Service city,Service state,Service ZIP,Job address')).toBe(true);
    const before = tableOf(body);
    expect(before[1]).toMatchObject({ 'Service address': '', 'Service city': '', 'Service state': '', 'Service ZIP': '' });
    expect(before[0]!['Job address']).toBe(before[0]!['Customer address']);
    await context.database.query(
      `update work_orders set service_address = '5 Rental Row', service_city = 'Okatie', service_state = 'SC', service_zip = null where title = 'No-cool call'`,
    );
    try {
      const rows = tableOf(await download('work-orders'));
      expect(rows[1]).toMatchObject({
        Title: 'No-cool call',
        'Service address': '5 Rental Row',
        'Service city': 'Okatie',
        'Service state': 'SC',
        'Service ZIP': '',
        'Job address': '5 Rental Row, Okatie, SC',
      });
      expect(rows[1]!['Customer address']).not.toContain('Rental Row');
    } finally {
      await context.database.query(`update work_orders set service_address = null, service_city = null, service_state = null where title = 'No-cool call'`);
    }
  });

  it('leads: estimate requests and chat leads, newest first', async () => {
    const rows = tableOf(await download('leads'));
    expect(rows.map((row) => row.Kind)).toEqual(['chat lead', 'estimate request']);
    expect(rows[0]).toMatchObject({ Name: 'José Núñez', 'Service type': 'repair', Description: 'Unit blowing warm air', 'Lead score': '8', Urgency: 'high', Priority: 'urgent', Customer: 'José Núñez' });
    expect(rows[1]).toMatchObject({ Name: `'-Mallory`, Description: 'Says "hi"', Address: '12 Oak St, Hilton Head Island, SC 29926', Priority: 'urgent', 'Lead score': '' });
  });

  it('is refused without a session', async () => {
    for (const kind of ['customers', 'work-orders', 'leads'] as const) {
      const response = await context.app.inject({ method: 'GET', url: exportPath(kind) });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('a large export', () => {
  it('streams 100,000 work orders to the last row over a real socket', { timeout: 180_000 }, async () => {
    const customerId = await insertCustomer({ name: 'Bulk Customer', createdAt: '2025-01-01T00:00:00Z' });
    // The search index plays no part in an export; kept row by row it makes this insert take a
    // minute on PGlite (this file's database is its own). The search rows are still written.
    await context.database.query('drop index work_order_search_text_trgm_idx');
    await context.database.query(
      `insert into work_orders (customer_id, title, service_date, created_at)
       select $1, 'Bulk job ' || n, date '2026-01-01' + (n % 365), timestamptz '2024-01-01' + n * interval '1 second'
         from generate_series(1, 100000) as n`,
      [customerId],
    );
    const [{ count } = { count: 0 }] = await context.database.query<{ count: number }>('select count(*)::int as count from work_orders');

    const baseUrl = await context.app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${baseUrl}${exportPath('work-orders')}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    // Read as it arrives, keeping only a count and the tail: the test holds no more than the server does.
    // Every record starts with its number (WO-...) right after the previous CRLF.
    const decoder = new TextDecoder();
    let records = 0;
    let carry = '';
    let tail = '';
    let chunks = 0;
    for await (const chunk of response.body!) {
      chunks += 1;
      const decoded = decoder.decode(chunk, { stream: true });
      const text = carry + decoded;
      records += text.match(/\r\nWO-\d/g)?.length ?? 0;
      carry = text.slice(-5);
      tail = (tail + decoded).slice(-2000);
    }
    expect(records).toBe(count);
    expect(tail).toMatch(/No-cool call,[^\r]*\r\n$/);
    expect(chunks).toBeGreaterThan(1);
  });
});
