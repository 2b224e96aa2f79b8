import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerInput } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import { workOrderStatuses, type WorkOrderStatus } from '#shared/enums.ts';
import { allowedTransitions, workOrderMessages, type WorkOrder } from '#shared/work-order.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let cookie: string;
let today: string;
let activeTechnicianId: string;
let inactiveTechnicianId: string;

function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, options: { signedIn?: boolean } = {}) {
  return context.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: options.signedIn === false ? {} : { cookie },
  });
}

const customerForm = (overrides: Partial<CustomerInput> = {}): CustomerInput => ({
  name: 'Jordan Rivers',
  type: 'residential',
  phone: '(843) 555-0100',
  address: '10 Palmetto Bay Rd',
  city: 'Bluffton',
  state: 'SC',
  ...overrides,
});

async function createCustomer(overrides: Partial<CustomerInput> = {}): Promise<string> {
  const response = await api('POST', '/api/admin/customers', customerForm(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().customer.id;
}

async function createWorkOrder(customerId: string, overrides: Record<string, unknown> = {}): Promise<WorkOrder> {
  const response = await api('POST', '/api/admin/work-orders', {
    customerId,
    title: 'AC not cooling',
    description: 'Runs but will not get below 80F.',
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().workOrder;
}

/** Puts a work order in a status directly (the fixture for transition tests). */
async function workOrderIn(status: WorkOrderStatus): Promise<WorkOrder> {
  const customerId = await createCustomer({ name: `Status ${status}` });
  const created = await createWorkOrder(customerId, { title: `In ${status}` });
  await context.database.query('update work_orders set status = $2 where id = $1', [created.id, status]);
  const detail = await api('GET', `/api/admin/work-orders/${created.id}`);
  return detail.json().workOrder;
}

const changeStatus = (order: WorkOrder, status: WorkOrderStatus) =>
  api('POST', `/api/admin/work-orders/${order.id}/status`, { status, expectedUpdatedAt: order.updatedAt });

const missingId = '00000000-0000-4000-8000-000000000000';

function daysFromToday(days: number): string {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  today = todayIn(context.config.businessTimeZone);
  const [active] = await context.database.query<{ id: string }>(`insert into technicians (name, color) values ('Zed Tech', '#112233') returning id`);
  const [inactive] = await context.database.query<{ id: string }>(
    `insert into technicians (name, color, active) values ('Amy Former', '#445566', false) returning id`,
  );
  await context.database.query(`insert into technicians (name) values ('Bo Tech')`);
  activeTechnicianId = active!.id;
  inactiveTechnicianId = inactive!.id;
});
afterAll(() => context?.close());

describe('access', () => {
  it('answers 401 without a session on every work-order path', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/work-orders'],
      ['POST', '/api/admin/work-orders'],
      ['GET', `/api/admin/work-orders/${missingId}`],
      ['POST', `/api/admin/work-orders/${missingId}/status`],
      ['PUT', `/api/admin/work-orders/${missingId}`],
      ['GET', '/api/admin/technicians'],
    ] as const) {
      const response = await api(method, url, method === 'GET' ? undefined : {}, { signedIn: false });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('technicians', () => {
  it('lists active technicians by name, or all of them', async () => {
    const active = await api('GET', '/api/admin/technicians?active=true');
    expect(active.statusCode).toBe(200);
    expect(active.json().technicians.map((technician: { name: string }) => technician.name)).toEqual(['Bo Tech', 'Zed Tech']);
    const all = await api('GET', '/api/admin/technicians');
    expect(all.json().technicians.map((technician: { name: string }) => technician.name)).toEqual(['Amy Former', 'Bo Tech', 'Zed Tech']);
    expect(all.json().technicians[0]).toMatchObject({ active: false, color: '#445566' });
  });
});

describe('creating a work order', () => {
  it('stores the form for an existing customer with the defaults and status pending', async () => {
    const customerId = await createCustomer();
    const response = await api('POST', '/api/admin/work-orders', { customerId, title: ' Heat pump noise ', description: 'Loud buzz', notes: '' });
    expect(response.statusCode, response.body).toBe(201);
    const { workOrder } = response.json();
    expect(workOrder).toMatchObject({
      customerId,
      title: 'Heat pump noise',
      status: 'pending',
      serviceType: 'repair',
      priority: 'normal',
      timePreference: 'morning',
      serviceDate: today,
      technicianId: null,
      startedAt: null,
    });
    expect(workOrder.workOrderNumber).toMatch(/^WO-\d+$/);
    const [row] = await context.database.query<{ status: string }>('select status from work_orders where id = $1', [workOrder.id]);
    expect(row?.status).toBe('pending');
  });

  it('refuses a missing customer, a missing title and an unknown customer id', async () => {
    const missing = await api('POST', '/api/admin/work-orders', { title: 'x', description: 'y' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain(workOrderMessages.selectCustomer);
    const noTitle = await api('POST', '/api/admin/work-orders', { customerId: await createCustomer(), title: ' ', description: 'y' });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().error.message).toContain('Title is required');
    const unknown = await api('POST', '/api/admin/work-orders', { customerId: missingId, title: 'x', description: 'y' });
    expect(unknown.statusCode).toBe(400);
  });

  it('refuses an inactive technician', async () => {
    const response = await api('POST', '/api/admin/work-orders', {
      customerId: await createCustomer(),
      title: 'x',
      description: 'y',
      technicianId: inactiveTechnicianId,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(workOrderMessages.technicianUnavailable);
  });

  it('creates an inline new customer and the work order together', async () => {
    const response = await api('POST', '/api/admin/work-orders', {
      customer: customerForm({ name: 'Inline Iris', phone: '843-555-0199' }),
      title: 'Inline job',
      description: 'New customer on the phone',
      technicianId: activeTechnicianId,
    });
    expect(response.statusCode, response.body).toBe(201);
    const { workOrder, customer } = response.json();
    expect(customer).toMatchObject({ name: 'Inline Iris', city: 'Bluffton' });
    expect(workOrder).toMatchObject({ customerId: customer.id, technicianId: activeTechnicianId, status: 'pending' });
  });

  it('leaves no customer behind when the work order fails (one transaction)', async () => {
    for (const technicianId of [missingId, inactiveTechnicianId]) {
      const name = `Rollback ${technicianId}`;
      const response = await api('POST', '/api/admin/work-orders', {
        customer: customerForm({ name }),
        title: 'Doomed job',
        description: 'The technician does not exist',
        technicianId,
      });
      expect(response.statusCode, response.body).toBe(400);
      const rows = await context.database.query('select id from customers where name = $1', [name]);
      expect(rows).toHaveLength(0);
    }
  });

  it('validates the inline customer', async () => {
    const response = await api('POST', '/api/admin/work-orders', { customer: { name: '' }, title: 'x', description: 'y' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('customer.name');
  });
});

describe('the list', () => {
  let listCustomer: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    listCustomer = await createCustomer({ name: 'Quentin Zephyrfield', phone: '(843) 555-7788' });
    const other = await createCustomer({ name: 'Listy Other', phone: '843-555-0000' });
    const rows = [
      { key: 'old', customerId: other, title: 'Xyloquest tune-up', description: 'Seasonal', serviceDate: '2024-01-01' },
      { key: 'mid', customerId: listCustomer, title: 'Ordinary repair', description: 'Contains 50%_off\\deal', serviceDate: '2024-01-02' },
      { key: 'new', customerId: other, title: 'Another repair', description: 'Blorptastic noise', serviceDate: '2024-01-03' },
    ];
    for (const row of rows) {
      const { key, ...values } = row;
      ids[key] = (await createWorkOrder(values.customerId, values)).id;
    }
    await context.database.query(`update work_orders set status = 'scheduled' where id = $1`, [ids.mid]);
  });

  const list = async (query: string) => {
    const response = await api('GET', `/api/admin/work-orders?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { workOrders: { id: string; customer: { name: string } }[]; total: number; page: number; pageSize: number };
  };

  it('orders newest service date first and joins the customer', async () => {
    const body = await list('pageSize=100');
    const positions = ['new', 'mid', 'old'].map((key) => body.workOrders.findIndex((order) => order.id === ids[key]));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const mid = body.workOrders.find((order) => order.id === ids.mid)!;
    expect(mid.customer).toEqual({ id: listCustomer, name: 'Quentin Zephyrfield', phone: '(843) 555-7788', address: '10 Palmetto Bay Rd' });
    expect(body.total).toBe(body.workOrders.length);
  });

  it('answers each row with its exact values, the same in the list and in search results', async () => {
    const owner = await createCustomer({ name: 'Exacta Owner', phone: '843-555-6161', address: '7 Heron Pt' });
    const made = await createWorkOrder(owner, { title: 'Exactavalue check', description: 'exact', serviceDate: '2099-12-31' });
    // Microseconds the answer cuts to the millisecond (.789654 -> .789, not rounded to .790).
    await context.database.query(
      `update work_orders set updated_at = '2099-12-30 04:05:06.789654+00', service_address = '12 Marsh Ln', service_city = 'Bluffton',
         service_state = 'SC', service_zip = '29910', priority = 'emergency', service_type = 'maintenance' where id = $1`,
      [made.id],
    );
    const expected = {
      id: made.id,
      workOrderNumber: made.workOrderNumber,
      title: 'Exactavalue check',
      description: 'exact',
      status: 'pending',
      priority: 'emergency',
      serviceType: 'maintenance',
      serviceDate: '2099-12-31',
      updatedAt: '2099-12-30T04:05:06.789Z',
      serviceAddress: '12 Marsh Ln',
      serviceCity: 'Bluffton',
      serviceState: 'SC',
      serviceZip: '29910',
      customer: { id: owner, name: 'Exacta Owner', phone: '843-555-6161', address: '7 Heron Pt' },
    };
    // The latest service date of the file: first on the list's first page.
    expect((await list('pageSize=2')).workOrders[0]).toEqual(expected);
    expect((await list('status=pending&pageSize=2')).workOrders[0]).toEqual(expected);
    expect((await list('search=exactavalue')).workOrders).toEqual([expected]);
    // The detail's version is the list's: a change based on the list's row is not refused as stale.
    expect((await api('GET', `/api/admin/work-orders/${made.id}`)).json().workOrder.updatedAt).toBe(expected.updatedAt);
    await context.database.query('delete from work_orders where id = $1', [made.id]);
  });

  it('filters by status', async () => {
    const body = await list('status=scheduled&pageSize=100');
    expect(body.workOrders.map((order) => order.id)).toContain(ids.mid);
    expect(body.workOrders.map((order) => order.id)).not.toContain(ids.new);
    const none = await list('status=completed&search=xyloquest');
    expect(none).toMatchObject({ workOrders: [], total: 0 });
  });

  it('searches title, description, customer name, customer phone and number, case-insensitively', async () => {
    expect((await list('search=XYLOQUEST')).workOrders.map((order) => order.id)).toEqual([ids.old]);
    expect((await list('search=blorptas')).workOrders.map((order) => order.id)).toEqual([ids.new]);
    expect((await list('search=zephyrF')).workOrders.map((order) => order.id)).toEqual([ids.mid]);
    expect((await list(`search=${encodeURIComponent('555-7788')}`)).workOrders.map((order) => order.id)).toEqual([ids.mid]);
    const [number] = await context.database.query<{ work_order_number: string }>('select work_order_number from work_orders where id = $1', [ids.new]);
    expect((await list(`search=${number!.work_order_number.toLowerCase()}`)).workOrders.map((order) => order.id)).toEqual([ids.new]);
  });

  it('finds a number by its start, and any number of another shape that contains it', async () => {
    const owner = await createCustomer({ name: 'Numbered Owner', phone: '843-555-4242' });
    const made: Record<string, string> = {};
    const numbered: Array<[string, string, string | undefined]> = [
      ['canonical', '2023-06-04', 'WO-9876541'],
      ['other shape', '2023-06-03', 'legacy-wo-98765/2'],
      ['in title', '2023-06-02', undefined],
      ['digits inside', '2023-06-01', 'WO-1987650'],
    ];
    for (const [name, serviceDate, number] of numbered) {
      const title = name === 'in title' ? 'Follow-up of WO-98765' : `Numbered job (${name})`;
      made[name] = (await createWorkOrder(owner, { title, description: 'numbered', serviceDate })).id;
      if (number) await context.database.query('update work_orders set work_order_number = $2 where id = $1', [made[name], number]);
    }
    const found = await list('search=wo-98765');
    expect(found.total).toBe(3);
    expect(found.workOrders.map((order) => order.id)).toEqual([made.canonical, made['other shape'], made['in title']]);
    expect((await list('search=WO-9876541')).workOrders.map((order) => order.id)).toEqual([made.canonical]);
    expect((await list('search=98765')).total).toBe(4);
  });

  it('counts a work order matching on several fields once, and pages search results', async () => {
    const owner = await createCustomer({ name: 'Pagewise Owner', phone: '843-555-3131' });
    const made: string[] = [];
    for (const [index, serviceDate] of ['2023-05-01', '2023-05-03', '2023-05-02'].entries()) {
      made.push((await createWorkOrder(owner, { title: `Pagewise job ${index}`, description: 'pagewise too', serviceDate })).id);
    }
    const first = await list('search=pagewise&pageSize=2');
    expect(first.total).toBe(3);
    expect(first.workOrders.map((order) => order.id)).toEqual([made[1], made[2]]);
    const second = await list('search=pagewise&pageSize=2&page=2');
    expect(second).toMatchObject({ total: 3, page: 2 });
    expect(second.workOrders.map((order) => order.id)).toEqual([made[0]]);
    expect((await list('search=pagewise&status=scheduled')).total).toBe(0);
  });

  it('takes % _ and \\ literally', async () => {
    expect((await list(`search=${encodeURIComponent('50%_off\\')}`)).workOrders.map((order) => order.id)).toEqual([ids.mid]);
    expect((await list(`search=${encodeURIComponent('%')}`)).workOrders.map((order) => order.id)).toEqual([ids.mid]);
    expect((await list('search=_')).total).toBe(1);
  });

  it('pages with the total of all matches', async () => {
    const all = await list('pageSize=100');
    const first = await list('page=1&pageSize=2');
    const second = await list('page=2&pageSize=2');
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: all.total });
    expect(second.total).toBe(all.total);
    expect([...first.workOrders, ...second.workOrders].map((order) => order.id)).toEqual(all.workOrders.slice(0, 4).map((order) => order.id));
    const beyond = await list('page=999&pageSize=2');
    expect(beyond).toMatchObject({ workOrders: [], total: all.total });
  });

  it('refuses a bad status or page', async () => {
    expect((await api('GET', '/api/admin/work-orders?status=done')).statusCode).toBe(400);
    expect((await api('GET', '/api/admin/work-orders?page=0')).statusCode).toBe(400);
  });
});

describe('the detail', () => {
  it('answers the work order with customer, technician, equipment, latest report, tasks and timeline', async () => {
    const customerId = await createCustomer({ name: 'Detail Dana' });
    const [unit] = await context.database.query<{ id: string }>(
      `insert into equipment (customer_id, equipment_type, brand) values ($1, 'Heat pump', 'Trane') returning id`,
      [customerId],
    );
    const order = await createWorkOrder(customerId, { technicianId: activeTechnicianId });
    await context.database.query('update work_orders set equipment_id = $2 where id = $1', [order.id, unit!.id]);
    await context.database.query(
      `insert into inspection_reports (work_order_id, mca, created_at) values ($1, 10, now() - interval '1 day'), ($1, 20, now())`,
      [order.id],
    );
    const first = await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: 'Check charge' });
    const second = await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: 'Flush drain', status: 'completed', timeSpentMinutes: 15 });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);

    const response = await api('GET', `/api/admin/work-orders/${order.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.workOrder).toMatchObject({ id: order.id, equipmentId: unit!.id, createdAt: order.createdAt });
    expect(Object.keys(body.workOrder)).toEqual(expect.arrayContaining(['updatedAt', 'startedAt', 'completedAt', 'scheduledDate', 'actualStartTime']));
    expect(body.customer).toMatchObject({ id: customerId, name: 'Detail Dana', city: 'Bluffton', hasIndoorUnit: false });
    expect(body.technician).toEqual({ id: activeTechnicianId, name: 'Zed Tech', color: '#112233' });
    expect(body.equipment).toMatchObject({ id: unit!.id, equipmentType: 'Heat pump', brand: 'Trane' });
    expect(body.inspectionReport).toMatchObject({ mca: 20, inspectionItems: [] });
    expect(body.tasks.map((task: { taskName: string }) => task.taskName)).toEqual(['Check charge', 'Flush drain']);
    expect(body.timeline).toEqual({ createdAt: order.createdAt, scheduledAt: null, startedAt: null, completedAt: null });
  });

  it('answers nulls when nothing is linked', async () => {
    const order = await createWorkOrder(await createCustomer());
    const body = (await api('GET', `/api/admin/work-orders/${order.id}`)).json();
    expect(body).toMatchObject({ technician: null, equipment: null, inspectionReport: null, tasks: [] });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [missingId, 'not-a-uuid']) {
      const response = await api('GET', `/api/admin/work-orders/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe('Work order not found');
    }
  });
});

describe('status changes', () => {
  it('allows exactly the transitions of the table and refuses the rest with a clear message', async () => {
    for (const from of workOrderStatuses) {
      for (const to of workOrderStatuses) {
        const order = await workOrderIn(from);
        const response = await changeStatus(order, to);
        if (allowedTransitions[from].includes(to)) {
          expect(response.statusCode, `${from} → ${to}: ${response.body}`).toBe(200);
          expect(response.json().workOrder.status).toBe(to);
        } else {
          expect(response.statusCode, `${from} → ${to}`).toBe(409);
          expect(response.json().error.message).toBe(workOrderMessages.transitionRefused(from, to));
          const [row] = await context.database.query<{ status: string }>('select status from work_orders where id = $1', [order.id]);
          expect(row?.status).toBe(from);
        }
      }
    }
  });

  it('says so in words', async () => {
    const order = await workOrderIn('completed');
    const response = await changeStatus(order, 'in-progress');
    expect(response.json().error.message).toBe('A completed work order cannot be moved to in-progress.');
  });

  it('stamps started_at / actual_start_time and completed_at / actual_end_time, and updated_at every time', async () => {
    const pending = await workOrderIn('pending');
    const started = (await changeStatus(pending, 'in-progress')).json().workOrder as WorkOrder;
    expect(started.startedAt).not.toBeNull();
    expect(started.actualStartTime).toBe(started.startedAt);
    expect(started.completedAt).toBeNull();
    expect(started.updatedAt > pending.updatedAt).toBe(true);

    const completed = (await changeStatus(started, 'completed')).json().workOrder as WorkOrder;
    expect(completed.completedAt).not.toBeNull();
    expect(completed.actualEndTime).toBe(completed.completedAt);
    expect(completed.startedAt).toBe(started.startedAt);
    expect(completed.updatedAt > started.updatedAt).toBe(true);

    const detail = (await api('GET', `/api/admin/work-orders/${pending.id}`)).json();
    expect(detail.timeline).toMatchObject({ startedAt: started.startedAt, completedAt: completed.completedAt });
  });

  it('refuses a stale version with 409 and the current values, and changes nothing', async () => {
    const order = await workOrderIn('pending');
    const notes = await api('PUT', `/api/admin/work-orders/${order.id}/notes`, { notes: 'First', expectedUpdatedAt: order.updatedAt });
    expect(notes.statusCode, notes.body).toBe(200);
    const current = notes.json().workOrder as WorkOrder;

    const stale = await changeStatus(order, 'in-progress');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'CONFLICT', message: workOrderMessages.conflict, details: { current: { id: order.id, notes: 'First', updatedAt: current.updatedAt } } });
    const [row] = await context.database.query<{ status: string }>('select status from work_orders where id = $1', [order.id]);
    expect(row?.status).toBe('pending');

    const staleNotes = await api('PUT', `/api/admin/work-orders/${order.id}/notes`, { notes: 'Second', expectedUpdatedAt: order.updatedAt });
    expect(staleNotes.statusCode).toBe(409);
    expect(staleNotes.json().error.details.current.notes).toBe('First');
  });

  it('answers 404 for an unknown work order and 400 for a bad body', async () => {
    const unknown = await api('POST', `/api/admin/work-orders/${missingId}/status`, { status: 'cancelled', expectedUpdatedAt: new Date().toISOString() });
    expect(unknown.statusCode).toBe(404);
    const order = await workOrderIn('pending');
    expect((await api('POST', `/api/admin/work-orders/${order.id}/status`, { status: 'done', expectedUpdatedAt: order.updatedAt })).statusCode).toBe(400);
    expect((await api('POST', `/api/admin/work-orders/${order.id}/status`, { status: 'cancelled' })).statusCode).toBe(400);
  });
});

describe('editing details', () => {
  const edits = (order: WorkOrder, overrides: Record<string, unknown> = {}) => ({
    title: 'Heat pump short-cycling',
    serviceType: 'maintenance',
    priority: 'high',
    serviceDate: daysFromToday(3),
    timePreference: 'afternoon',
    description: 'Cycles every 4 minutes.',
    technicianId: activeTechnicianId,
    equipmentId: null,
    expectedUpdatedAt: order.updatedAt,
    ...overrides,
  });

  it("saves every field of the form and the customer's equipment, keeps status and notes, bumps updated_at", async () => {
    const customerId = await createCustomer({ name: 'Edit Eddie' });
    const [unit] = await context.database.query<{ id: string }>(
      `insert into equipment (customer_id, equipment_type) values ($1, 'Air handler') returning id`,
      [customerId],
    );
    const order = await createWorkOrder(customerId, { notes: 'Gate code 1234' });
    const response = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { equipmentId: unit!.id }));
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().workOrder as WorkOrder;
    expect(saved).toMatchObject({
      title: 'Heat pump short-cycling',
      serviceType: 'maintenance',
      priority: 'high',
      serviceDate: daysFromToday(3),
      timePreference: 'afternoon',
      description: 'Cycles every 4 minutes.',
      technicianId: activeTechnicianId,
      equipmentId: unit!.id,
      status: 'pending',
      notes: 'Gate code 1234',
      customerId,
    });
    expect(saved.updatedAt > order.updatedAt).toBe(true);
    const detail = (await api('GET', `/api/admin/work-orders/${order.id}`)).json();
    expect(detail.equipment).toMatchObject({ id: unit!.id, equipmentType: 'Air handler' });
  });

  it("refuses another customer's equipment, an inactive newly chosen technician and an empty title, changing nothing", async () => {
    const order = await createWorkOrder(await createCustomer({ name: 'Edit Refused' }));
    const [foreign] = await context.database.query<{ id: string }>(
      `insert into equipment (customer_id, equipment_type) values ($1, 'Furnace') returning id`,
      [await createCustomer({ name: 'Someone Else' })],
    );
    const foreignEquipment = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { equipmentId: foreign!.id }));
    expect(foreignEquipment.statusCode).toBe(400);
    expect(foreignEquipment.json().error.message).toBe(workOrderMessages.equipmentUnavailable);
    const inactive = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { technicianId: inactiveTechnicianId }));
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error.message).toBe(workOrderMessages.technicianUnavailable);
    const noTitle = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { title: '  ' }));
    expect(noTitle.statusCode).toBe(400);
    const unchanged = (await api('GET', `/api/admin/work-orders/${order.id}`)).json().workOrder;
    expect(unchanged).toEqual(order);
  });

  it('keeps a technician who has since become inactive when other fields change', async () => {
    const order = await createWorkOrder(await createCustomer({ name: 'Edit Former Tech' }));
    await context.database.query('update work_orders set technician_id = $2 where id = $1', [order.id, inactiveTechnicianId]);
    const current = (await api('GET', `/api/admin/work-orders/${order.id}`)).json().workOrder as WorkOrder;
    const response = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(current, { technicianId: inactiveTechnicianId, priority: 'low' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().workOrder).toMatchObject({ technicianId: inactiveTechnicianId, priority: 'low' });
  });

  it("refuses a stale version with 409 and the current values: the second editor cannot overwrite the first's change", async () => {
    const order = await createWorkOrder(await createCustomer({ name: 'Edit Race' }));
    const first = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { title: 'First editor' }));
    expect(first.statusCode, first.body).toBe(200);
    const second = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(order, { title: 'Second editor' }));
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe(workOrderMessages.conflict);
    expect(second.json().error.details.current).toMatchObject({ id: order.id, title: 'First editor', updatedAt: first.json().workOrder.updatedAt });
    expect((await api('GET', `/api/admin/work-orders/${order.id}`)).json().workOrder.title).toBe('First editor');
    // Based on the version it was shown, the second save goes through.
    const retried = await api('PUT', `/api/admin/work-orders/${order.id}`, edits(second.json().error.details.current, { title: 'Second editor' }));
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().workOrder.title).toBe('Second editor');
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const order = await createWorkOrder(await createCustomer());
    for (const id of [missingId, 'not-a-uuid']) {
      expect((await api('PUT', `/api/admin/work-orders/${id}`, edits(order))).statusCode).toBe(404);
    }
  });
});

describe('notes', () => {
  it('saves the notes and bumps updated_at', async () => {
    const order = await workOrderIn('in-progress');
    const response = await api('PUT', `/api/admin/work-orders/${order.id}/notes`, { notes: 'Replaced capacitor.', expectedUpdatedAt: order.updatedAt });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().workOrder).toMatchObject({ notes: 'Replaced capacitor.', status: 'in-progress' });
    expect(response.json().workOrder.updatedAt > order.updatedAt).toBe(true);
    expect((await api('PUT', `/api/admin/work-orders/${missingId}/notes`, { notes: 'x', expectedUpdatedAt: order.updatedAt })).statusCode).toBe(404);
  });
});

describe('scheduling', () => {
  const schedule = (order: WorkOrder, body: Record<string, unknown>) =>
    api('POST', `/api/admin/work-orders/${order.id}/schedule`, { expectedUpdatedAt: order.updatedAt, ...body });

  it('schedules a pending work order in the company time zone, then re-schedules it', async () => {
    const order = await workOrderIn('pending');
    const date = daysFromToday(3);
    const response = await schedule(order, {
      date,
      startTime: '09:00',
      durationHours: 3,
      technicianId: activeTechnicianId,
      specialInstructions: 'Gate code 1234',
    });
    expect(response.statusCode, response.body).toBe(200);
    const scheduled = response.json().workOrder as WorkOrder;
    expect(scheduled).toMatchObject({
      status: 'scheduled',
      serviceDate: date,
      scheduledStartTime: '09:00:00',
      scheduledEndTime: '12:00:00',
      estimatedDuration: 3,
      technicianId: activeTechnicianId,
      specialInstructions: 'Gate code 1234',
    });
    const [row] = await context.database.query<{ local: string }>(
      `select to_char(scheduled_date at time zone $2, 'YYYY-MM-DD HH24:MI') as local from work_orders where id = $1`,
      [order.id, context.config.businessTimeZone],
    );
    expect(row?.local).toBe(`${date} 09:00`);

    const again = await schedule(scheduled, { date: daysFromToday(4), startTime: '13:00' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().workOrder).toMatchObject({ serviceDate: daysFromToday(4), scheduledEndTime: '15:00:00', estimatedDuration: 2, technicianId: null });
    const detail = (await api('GET', `/api/admin/work-orders/${order.id}`)).json();
    expect(detail.timeline.scheduledAt).toBe(again.json().workOrder.scheduledDate);
  });

  it('refuses a past date, a missing time, a day that runs past 19:00 and unknown or inactive technicians', async () => {
    const order = await workOrderIn('pending');
    const past = await schedule(order, { date: daysFromToday(-1), startTime: '09:00' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.message).toContain('The date cannot be in the past');
    const noTime = await schedule(order, { date: today });
    expect(noTime.statusCode).toBe(400);
    expect(noTime.json().error.message).toContain(workOrderMessages.scheduleNeedsDateAndTime);
    const late = await schedule(order, { date: today, startTime: '16:00', durationHours: 8 });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toContain(workOrderMessages.scheduleTooLate);
    for (const technicianId of [missingId, inactiveTechnicianId]) {
      const response = await schedule(order, { date: today, startTime: '16:00', durationHours: 3, technicianId });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(workOrderMessages.technicianUnavailable);
    }
    const [row] = await context.database.query<{ status: string }>('select status from work_orders where id = $1', [order.id]);
    expect(row?.status).toBe('pending');
  });

  it('refuses work orders that are in progress, completed or cancelled, and stale versions', async () => {
    for (const status of ['in-progress', 'completed', 'cancelled'] as const) {
      const response = await schedule(await workOrderIn(status), { date: today, startTime: '16:00' });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe(workOrderMessages.scheduleOnlyOpen);
    }
    const order = await workOrderIn('pending');
    const stale = await schedule({ ...order, updatedAt: '2020-01-01T00:00:00.000Z' }, { date: today, startTime: '16:00' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current.id).toBe(order.id);
  });
});

describe('tasks and inspection reports', () => {
  it('adds and updates tasks', async () => {
    const order = await workOrderIn('in-progress');
    const created = await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: ' Check filter ' });
    expect(created.statusCode, created.body).toBe(201);
    const { task } = created.json();
    expect(task).toMatchObject({ workOrderId: order.id, taskName: 'Check filter', status: 'pending', timeSpentMinutes: null });

    const updated = await api('PATCH', `/api/admin/work-orders/${order.id}/tasks/${task.id}`, { status: 'completed', timeSpentMinutes: 20 });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().task).toMatchObject({ id: task.id, status: 'completed', timeSpentMinutes: 20 });

    expect((await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: '' })).statusCode).toBe(400);
    expect((await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: 'x', status: 'done' })).statusCode).toBe(400);
    expect((await api('PATCH', `/api/admin/work-orders/${order.id}/tasks/${task.id}`, {})).statusCode).toBe(400);
    expect((await api('POST', `/api/admin/work-orders/${missingId}/tasks`, { taskName: 'x' })).statusCode).toBe(404);
    const other = await workOrderIn('pending');
    const wrongOrder = await api('PATCH', `/api/admin/work-orders/${other.id}/tasks/${task.id}`, { status: 'pending' });
    expect(wrongOrder.statusCode).toBe(404);
    expect(wrongOrder.json().error.message).toBe(workOrderMessages.taskNotFound);
  });

  it('adds an inspection report', async () => {
    const order = await workOrderIn('in-progress');
    const response = await api('POST', `/api/admin/work-orders/${order.id}/inspection-reports`, {
      mca: 18.5,
      mocp: 30,
      tempSplit: 19.2,
      staticPressure: 0.45,
      inspectionItems: ['coil_clean', 'drain_flushed'],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().inspectionReport).toMatchObject({ workOrderId: order.id, mca: 18.5, mocp: 30, tempSplit: 19.2, staticPressure: 0.45, inspectionItems: ['coil_clean', 'drain_flushed'] });
    const detail = (await api('GET', `/api/admin/work-orders/${order.id}`)).json();
    expect(detail.inspectionReport.id).toBe(response.json().inspectionReport.id);

    expect((await api('POST', `/api/admin/work-orders/${order.id}/inspection-reports`, { inspectionItems: ['Not Snake'] })).statusCode).toBe(400);
    expect((await api('POST', `/api/admin/work-orders/${missingId}/inspection-reports`, {})).statusCode).toBe(404);
  });
});
