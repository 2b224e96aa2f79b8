import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDeleteBlockedMessage, type CustomerInput } from '#shared/customer.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let cookie: string;

function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, options: { signedIn?: boolean } = {}) {
  return context.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: options.signedIn === false ? {} : { cookie },
  });
}

const form = (overrides: Partial<CustomerInput> = {}): CustomerInput => ({
  name: 'Jordan Rivers',
  type: 'residential',
  phone: '(843) 555-0100',
  email: '',
  address: '10 Palmetto Bay Rd',
  city: 'Bluffton',
  state: 'SC',
  zip: '29910',
  ...overrides,
});

async function createCustomer(overrides: Partial<CustomerInput> = {}): Promise<{ id: string; [key: string]: unknown }> {
  const response = await api('POST', '/api/admin/customers', form(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().customer;
}

async function insertWorkOrder(customerId: string, title: string, createdAt: string) {
  await context.database.query(
    `insert into work_orders (customer_id, title, service_date, created_at) values ($1, $2, '2025-03-01', $3)`,
    [customerId, title, createdAt],
  );
}

const missingId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
});
afterAll(() => context?.close());

describe('creating a customer', () => {
  it('stores the form with the spec defaults and answers 201 with the customer', async () => {
    const response = await api('POST', '/api/admin/customers', { name: ' Casey Morgan ', phone: '843-555-0111', address: '4 Oak Forest Rd', email: '' });
    expect(response.statusCode).toBe(201);
    const { customer } = response.json();
    expect(customer).toMatchObject({
      name: 'Casey Morgan',
      type: 'residential',
      city: 'Bluffton',
      state: 'SC',
      email: null,
      zip: null,
      hasIndoorUnit: false,
      hasOutdoorUnit: false,
      latitude: null,
      geocodingStatus: 'pending',
    });
    expect(customer.id).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await context.database.query<{ name: string }>('select name from customers where id = $1', [customer.id]);
    expect(row?.name).toBe('Casey Morgan');
  });

  it('refuses missing required fields and bad values with a 400 naming each field', async () => {
    const response = await api('POST', '/api/admin/customers', {
      name: '',
      phone: '',
      address: ' ',
      email: 'not-an-email',
      zip: '123',
      refrigerantType: 'R-999',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    const messages = Object.fromEntries((body.error.details as { path: string; message: string }[]).map((field) => [field.path, field.message]));
    expect(messages).toMatchObject({
      name: 'Name is required',
      phone: 'Phone is required',
      address: 'Address is required',
      email: 'Please enter a valid email address',
      zip: 'Please enter a 5-digit ZIP code',
      refrigerantType: 'Choose a refrigerant from the list',
    });
    expect(body.error.message).toContain('name: Name is required');
  });

  it('is for staff only', async () => {
    expect((await api('POST', '/api/admin/customers', form(), { signedIn: false })).statusCode).toBe(401);
    expect((await api('GET', '/api/admin/customers', undefined, { signedIn: false })).statusCode).toBe(401);
  });
});

describe('the directory search', () => {
  let pearson: string;

  beforeAll(async () => {
    pearson = (await createCustomer({ name: 'Alice Pearson', phone: '(843) 555-7301', email: 'alice.p@Lowcountry-Mail.com', address: '12 Marsh Hawk Rd' })).id;
    await createCustomer({ name: 'Bob Marshall', phone: '843.555.7302', email: 'bob@example.com', address: '9 Sea Pines Dr' });
    await createCustomer({ name: '100% Cotton Outlet', type: 'commercial', phone: '843-555-7303', address: '1 Fashion Way' });
    await createCustomer({ name: 'Under_score LLC', type: 'commercial', phone: '843-555-7304', address: '2 Literal Ln' });
    await createCustomer({ name: 'Underxscore Plain', phone: '843-555-7305', address: '3 Literal Ln' });
  });

  const search = async (text: string, extra = '') => {
    const response = await api('GET', `/api/admin/customers?search=${encodeURIComponent(text)}${extra}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { customers: { id: string; name: string }[]; total: number; page: number; pageSize: number };
  };
  const names = (result: { customers: { name: string }[] }) => result.customers.map((customer) => customer.name);

  it('matches the name, phone, e-mail and address, ignoring case', async () => {
    for (const text of ['PEARSON', 'lice pea', '555-7301', '(843) 555-73', 'LOWCOUNTRY-mail', 'marsh hawk']) {
      const result = await search(text);
      expect(result.customers.map((customer) => customer.id), text).toContain(pearson);
    }
    expect(names(await search('marsh'))).toEqual(['Alice Pearson', 'Bob Marshall']);
    expect((await search('sea pines')).total).toBe(1);
    expect((await search('no such customer anywhere')).customers).toEqual([]);
  });

  it('treats % and _ in the text literally', async () => {
    expect(names(await search('100%'))).toEqual(['100% Cotton Outlet']);
    expect(names(await search('%'))).toEqual(['100% Cotton Outlet']);
    expect(names(await search('under_'))).toEqual(['Under_score LLC']);
    expect(names(await search('_'))).toEqual(['Under_score LLC']);
    expect((await search('\\')).total).toBe(0);
  });

  it('answers list items only, never the whole record', async () => {
    const [item] = (await search('Pearson')).customers;
    expect(Object.keys(item!).sort()).toEqual(['address', 'city', 'email', 'id', 'name', 'phone', 'state', 'type', 'zip']);
  });

  it('pages by lower-case name with the total of all matches, and an empty page beyond the end', async () => {
    for (const name of ['paging Echo', 'Paging alpha', 'PAGING Delta', 'paging charlie', 'Paging Bravo', 'paging foxtrot', 'Paging Golf']) {
      await createCustomer({ name, phone: '843-555-7400', address: '7 Paging Ct' });
    }
    const first = await search('paging', '&page=1&pageSize=3');
    expect(first).toMatchObject({ total: 7, page: 1, pageSize: 3 });
    expect(names(first)).toEqual(['Paging alpha', 'Paging Bravo', 'paging charlie']);
    expect(names(await search('paging', '&page=2&pageSize=3'))).toEqual(['PAGING Delta', 'paging Echo', 'paging foxtrot']);
    expect(names(await search('paging', '&page=3&pageSize=3'))).toEqual(['Paging Golf']);
    const beyond = await search('paging', '&page=4&pageSize=3');
    expect(beyond).toMatchObject({ customers: [], total: 7, page: 4 });
  });

  it('answers a repeated search again after any commit: a kept answer never hides a change (decision 026-b, addendum 3)', async () => {
    expect(await search('Kestrel Kept')).toMatchObject({ customers: [], total: 0 });
    expect(await search('Kestrel Kept')).toMatchObject({ customers: [], total: 0 });
    const kestrel = await createCustomer({ name: 'Kestrel Kept', phone: '843-555-7390', address: '4 Kept Ct' });
    expect(names(await search('Kestrel Kept'))).toEqual(['Kestrel Kept']);
    await context.database.query(`update customers set name = 'Kestrel Gone' where id = $1`, [kestrel.id]);
    expect(await search('Kestrel Kept')).toMatchObject({ customers: [], total: 0 });
  });

  it('lists everyone when the search is empty, 50 to a page by default', async () => {
    const count = (await context.database.query<{ count: number }>('select count(*)::int as count from customers'))[0]!.count;
    const result = await search('');
    expect(result).toMatchObject({ total: count, page: 1, pageSize: 50 });
    expect(result.customers).toHaveLength(Math.min(count, 50));
    expect(count).toBeGreaterThan(5);
    expect((await search('', '&pageSize=5')).customers).toHaveLength(5);
  });

  it('refuses a bad page or page size', async () => {
    expect((await api('GET', '/api/admin/customers?page=0')).statusCode).toBe(400);
    expect((await api('GET', '/api/admin/customers?page=abc')).statusCode).toBe(400);
    expect((await api('GET', '/api/admin/customers?pageSize=101')).statusCode).toBe(400);
  });
});

describe('the customer picker lookup', () => {
  beforeAll(async () => {
    for (let index = 1; index <= 12; index += 1) {
      await createCustomer({ name: `Lookup Person ${String(index).padStart(2, '0')}`, phone: `843-555-81${String(index).padStart(2, '0')}`, address: '5 Picker Pl' });
    }
    await createCustomer({ name: 'Quinn Zephyr', phone: '912-777-0001', email: 'lookup@example.com', address: '6 Lookup Rd' });
  });

  const lookup = (q: string) => api('GET', `/api/admin/customers/lookup?q=${encodeURIComponent(q)}`);

  it('finds by name or phone, case-insensitively, at most 10, by name', async () => {
    const byName = await lookup('lookup person');
    expect(byName.statusCode).toBe(200);
    const found = byName.json().customers as { name: string }[];
    expect(found).toHaveLength(10);
    expect(found.map((customer) => customer.name)).toEqual(Array.from({ length: 10 }, (_, index) => `Lookup Person ${String(index + 1).padStart(2, '0')}`));
    expect((await lookup('ZEPHYR')).json().customers.map((customer: { name: string }) => customer.name)).toEqual(['Quinn Zephyr']);
    expect((await lookup('912-777')).json().customers.map((customer: { name: string }) => customer.name)).toEqual(['Quinn Zephyr']);
  });

  it('does not look at e-mail or address', async () => {
    expect((await lookup('lookup@example')).json().customers).toEqual([]);
    expect((await lookup('Lookup Rd')).json().customers).toEqual([]);
  });

  it('needs at least 2 characters', async () => {
    const response = await lookup('L');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('Type at least 2 characters');
    expect((await lookup(' L ')).statusCode).toBe(400);
  });
});

describe('the profile', () => {
  it('has the customer, equipment, photos and work orders newest first', async () => {
    const customer = await createCustomer({ name: 'Profile Owner', unitBrand: 'Trane', tonnage: '3', installDate: '2019-05-01' });
    await context.database.query(`insert into equipment (customer_id, equipment_type, brand, model, refrigerant, tonnage) values ($1, 'Heat pump', 'Carrier', '25HCB6', 'R-410A', '3')`, [customer.id]);
    await insertWorkOrder(customer.id, 'Oldest visit', '2024-01-01T10:00:00Z');
    await insertWorkOrder(customer.id, 'Newest visit', '2025-06-01T10:00:00Z');
    await insertWorkOrder(customer.id, 'Middle visit', '2024-09-01T10:00:00Z');

    const response = await api('GET', `/api/admin/customers/${customer.id}`);
    expect(response.statusCode).toBe(200);
    const profile = response.json();
    expect(profile.customer).toMatchObject({ id: customer.id, name: 'Profile Owner', unitBrand: 'Trane', tonnage: '3', installDate: '2019-05-01' });
    expect(profile.equipment).toEqual([
      {
        id: expect.any(String),
        equipmentType: 'Heat pump',
        location: null,
        brand: 'Carrier',
        model: '25HCB6',
        serialNumber: null,
        // Issue 19: what the field records about the unit.
        refrigerant: 'R-410A',
        tonnage: '3',
        warrantyStatus: null,
      },
    ]);
    expect(profile.photos).toEqual([]);
    expect(profile.workOrders.map((order: { title: string }) => order.title)).toEqual(['Newest visit', 'Middle visit', 'Oldest visit']);
    expect(profile.workOrders[0]).toMatchObject({
      workOrderNumber: expect.stringMatching(/^WO-\d+$/),
      status: 'pending',
      priority: 'normal',
      serviceType: 'repair',
      serviceDate: '2025-03-01',
      createdAt: '2025-06-01T10:00:00.000Z',
    });
  });

  it('lists at most 100 work orders', async () => {
    const customer = await createCustomer({ name: 'Busy Customer' });
    await context.database.query(
      `insert into work_orders (customer_id, title, service_date, created_at)
       select $1, 'Visit ' || n, '2025-01-01', timestamptz '2020-01-01' + n * interval '1 day' from generate_series(1, 105) as n`,
      [customer.id],
    );
    const { workOrders } = (await api('GET', `/api/admin/customers/${customer.id}`)).json();
    expect(workOrders).toHaveLength(100);
    expect(workOrders[0].title).toBe('Visit 105');
  });

  it('is a 404 for an unknown or malformed id', async () => {
    for (const id of [missingId, 'not-a-uuid', '123', "1' or '1'='1"]) {
      const response = await api('GET', `/api/admin/customers/${encodeURIComponent(id)}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error).toEqual({ code: 'NOT_FOUND', message: 'Customer not found' });
    }
  });
});

describe('editing a customer', () => {
  const geocoded = async (id: string) => {
    await context.database.query(
      `update customers set latitude = 32.23, longitude = -80.86, geocoded_at = now(), formatted_address = 'Formatted', geocoding_status = 'success',
         geocoding_accuracy = 'ROOFTOP', geocoding_error = null where id = $1`,
      [id],
    );
  };
  const geocoding = async (id: string) =>
    (
      await context.database.query<Record<string, unknown>>(
        `select latitude, longitude, geocoded_at, formatted_address, geocoding_error, geocoding_accuracy, geocoding_status from customers where id = $1`,
        [id],
      )
    )[0]!;

  it('saves the whole form and moves updated_at', async () => {
    const customer = await createCustomer({ name: 'Before Edit' });
    const response = await api('PUT', `/api/admin/customers/${customer.id}`, form({ name: 'After Edit', notes: 'Gate code 1234', hasOutdoorUnit: true, refrigerantType: 'R-410A' }));
    expect(response.statusCode).toBe(200);
    const updated = response.json().customer;
    expect(updated).toMatchObject({ id: customer.id, name: 'After Edit', notes: 'Gate code 1234', hasOutdoorUnit: true, refrigerantType: 'R-410A' });
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThan(new Date(customer.updatedAt as string).getTime());
  });

  it('keeps the coordinates when the address stays the same', async () => {
    const customer = await createCustomer({ name: 'Stays Put' });
    await geocoded(customer.id);
    const response = await api('PUT', `/api/admin/customers/${customer.id}`, form({ name: 'Stays Put Renamed', phone: '843-555-0999' }));
    expect(response.statusCode).toBe(200);
    expect(response.json().customer).toMatchObject({ latitude: 32.23, longitude: -80.86, geocodingStatus: 'success' });
    expect(await geocoding(customer.id)).toMatchObject({ latitude: 32.23, formatted_address: 'Formatted', geocoding_accuracy: 'ROOFTOP', geocoding_status: 'success' });
  });

  it('clears the coordinates and marks the customer pending when the address, city, state or ZIP changes', async () => {
    for (const change of [{ address: '99 New Address Ave' }, { city: 'Hilton Head Island' }, { state: 'GA' }, { zip: '29926' }, { zip: '' }]) {
      const customer = await createCustomer({ name: `Mover ${JSON.stringify(change)}` });
      await geocoded(customer.id);
      const response = await api('PUT', `/api/admin/customers/${customer.id}`, form({ name: `Mover ${JSON.stringify(change)}`, ...change }));
      expect(response.statusCode, JSON.stringify(change)).toBe(200);
      // An emptied ZIP is stored as null: a change all the same.
      expect(response.json().customer, JSON.stringify(change)).toMatchObject({ ...change, ...(change.zip === '' ? { zip: null } : {}), latitude: null, longitude: null, geocodingStatus: 'pending' });
      expect(await geocoding(customer.id), JSON.stringify(change)).toEqual({
        latitude: null,
        longitude: null,
        geocoded_at: null,
        formatted_address: null,
        geocoding_error: null,
        geocoding_accuracy: null,
        geocoding_status: 'pending',
      });
    }
  });

  it('refuses an invalid form with field details, and an unknown customer with a 404', async () => {
    const customer = await createCustomer({ name: 'Valid Before' });
    const invalid = await api('PUT', `/api/admin/customers/${customer.id}`, form({ name: '', state: 'South Carolina' }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Name is required' },
        { path: 'state', message: 'Use the two-letter state code' },
      ]),
    );
    const [row] = await context.database.query<{ name: string }>('select name from customers where id = $1', [customer.id]);
    expect(row?.name).toBe('Valid Before');
    expect((await api('PUT', `/api/admin/customers/${missingId}`, form())).statusCode).toBe(404);
    expect((await api('PUT', '/api/admin/customers/nope', form())).statusCode).toBe(404);
  });
});

describe('deleting a customer', () => {
  it('is refused while the customer has work orders, and keeps everything', async () => {
    const customer = await createCustomer({ name: 'Has History' });
    await insertWorkOrder(customer.id, 'First job', '2025-01-01T00:00:00Z');
    await insertWorkOrder(customer.id, 'Second job', '2025-02-01T00:00:00Z');
    await insertWorkOrder(customer.id, 'Third job', '2025-03-01T00:00:00Z');
    const response = await api('DELETE', `/api/admin/customers/${customer.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'CONFLICT', message: 'This customer has 3 work orders. Delete or reassign them first.' });
    expect((await api('GET', `/api/admin/customers/${customer.id}`)).statusCode).toBe(200);
    expect(customerDeleteBlockedMessage(1)).toBe('This customer has 1 work order. Delete or reassign it first.');
  });

  it('removes a customer without work orders, with its equipment', async () => {
    const customer = await createCustomer({ name: 'No History' });
    await context.database.query(`insert into equipment (customer_id, equipment_type) values ($1, 'Furnace')`, [customer.id]);
    const response = await api('DELETE', `/api/admin/customers/${customer.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await api('GET', `/api/admin/customers/${customer.id}`)).statusCode).toBe(404);
    expect(await context.database.query('select 1 from equipment where customer_id = $1', [customer.id])).toEqual([]);
    expect((await api('DELETE', `/api/admin/customers/${customer.id}`)).statusCode).toBe(404);
  });

  it('is a 404 for a malformed id, and for strangers a 401', async () => {
    expect((await api('DELETE', '/api/admin/customers/not-a-uuid')).statusCode).toBe(404);
    const customer = await createCustomer({ name: 'Protected' });
    expect((await api('DELETE', `/api/admin/customers/${customer.id}`, undefined, { signedIn: false })).statusCode).toBe(401);
    expect((await api('GET', `/api/admin/customers/${customer.id}`)).statusCode).toBe(200);
  });
});
