import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditListResponse } from '#shared/audit.ts';
import type { CustomerInput } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import type { WorkOrder } from '#shared/work-order.ts';
import { validEstimateRequest } from '#tests/support/estimate-fixtures.ts';
import { multipartBody, png } from '#tests/support/images.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

// Every change of customers, work orders and leads leaves one audit entry with the acting user and
// the changed fields as [before, after], written in the same transaction as the change (issue 10).

let context: TestContext;
let cookie: string;
let staffId: string;
let today: string;
let technicianId: string;
let nextAddress = 10;
const freshAddress = () => `127.0.3.${(nextAddress += 1)}`;

function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return context.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), headers: { cookie } });
}

/** The entries of one record, oldest first, straight from the table. */
async function entriesOf(entityType: string, entityId: string): Promise<AuditEntry[]> {
  const response = await api('GET', `/api/admin/settings/activity?entityType=${entityType}&entityId=${entityId}`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as AuditListResponse).entries.reverse();
}

async function lastEntryOf(entityType: string, entityId: string): Promise<AuditEntry> {
  const entries = await entriesOf(entityType, entityId);
  return entries[entries.length - 1]!;
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
  const response = await api('POST', '/api/admin/work-orders', { customerId, title: 'AC not cooling', description: 'Warm air.', ...overrides });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().workOrder;
}

const staffActor = () => ({ actorId: staffId, actorName: 'Pat Staff' });

beforeAll(async () => {
  context = await createTestApp({ env: { PUBLIC_FORM_LIMIT: '100' } });
  staffId = (await createStaff(context.database)).id;
  cookie = await signIn(context.app);
  today = todayIn(context.config.businessTimeZone);
  const [technician] = await context.database.query<{ id: string }>(`insert into technicians (name, color) values ('Dana Tech', '#2563eb') returning id`);
  technicianId = technician!.id;
});
afterAll(() => context?.close());

describe('customers', () => {
  it('records the creation with the values set, by the signed-in user', async () => {
    const id = await createCustomer({ name: 'Audit Alice', email: 'alice@example.com' });
    const entries = await entriesOf('customer', id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ...staffActor(), entityType: 'customer', entityId: id, entityLabel: 'Audit Alice', action: 'created' });
    expect(entries[0]!.changes).toMatchObject({ name: [null, 'Audit Alice'], email: [null, 'alice@example.com'], city: [null, 'Bluffton'] });
    expect(entries[0]!.changes).not.toHaveProperty('id');
  });

  it('records an update with exactly the changed fields, and nothing for a save that changed nothing', async () => {
    const id = await createCustomer({ name: 'Audit Bob' });
    const changed = await api('PUT', `/api/admin/customers/${id}`, customerForm({ name: 'Audit Robert', phone: '(843) 555-0199' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await lastEntryOf('customer', id)).toMatchObject({
      action: 'updated',
      entityLabel: 'Audit Robert',
      changes: { name: ['Audit Bob', 'Audit Robert'], phone: ['(843) 555-0100', '(843) 555-0199'] },
    });
    expect(Object.keys((await lastEntryOf('customer', id)).changes)).toEqual(['name', 'phone']);

    await api('PUT', `/api/admin/customers/${id}`, customerForm({ name: 'Audit Robert', phone: '(843) 555-0199' }));
    expect(await entriesOf('customer', id)).toHaveLength(2);
  });

  it('records photos added and removed, and the deletion with the values the customer had', async () => {
    const id = await createCustomer({ name: 'Audit Carol' });
    const upload = await multipartBody([{ name: 'furnace.png', bytes: await png(64, 48), type: 'image/png' }]);
    const uploaded = await context.app.inject({
      method: 'POST',
      url: `/api/admin/customers/${id}/photos`,
      payload: upload.payload,
      headers: { cookie, ...upload.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const added = await lastEntryOf('customer', id);
    expect(added).toMatchObject({ action: 'photos_added', changes: { photos: [null, [expect.stringContaining('furnace')]] } });

    const photoId = uploaded.json().photos[0].id;
    expect((await api('DELETE', `/api/admin/customers/${id}/photos/${photoId}`)).statusCode).toBe(204);
    expect(await lastEntryOf('customer', id)).toMatchObject({ action: 'photo_removed', changes: { photo: [expect.stringContaining('furnace'), null] } });

    expect((await api('DELETE', `/api/admin/customers/${id}`)).statusCode).toBe(204);
    expect(await lastEntryOf('customer', id)).toMatchObject({ ...staffActor(), action: 'deleted', entityLabel: 'Audit Carol', changes: { name: ['Audit Carol', null] } });
  });

  it('records a map pin placed by hand', async () => {
    const id = await createCustomer({ name: 'Audit Pinned' });
    const placed = await api('PUT', `/api/admin/customers/${id}/location`, { latitude: 32.2371, longitude: -80.8604 });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await lastEntryOf('customer', id)).toMatchObject({
      ...staffActor(),
      action: 'location_set',
      changes: { latitude: [null, 32.2371], longitude: [null, -80.8604], geocodingStatus: ['pending', 'success'], geocodingAccuracy: [null, 'ROOFTOP'] },
    });
  });

  it('a refused delete (the customer has work orders) leaves no entry', async () => {
    const id = await createCustomer({ name: 'Audit Dave' });
    await createWorkOrder(id);
    expect((await api('DELETE', `/api/admin/customers/${id}`)).statusCode).toBe(409);
    expect((await entriesOf('customer', id)).map((entry) => entry.action)).toEqual(['created']);
  });
});

describe('work orders', () => {
  it('records creation, edit, notes, status changes, scheduling, tasks and inspection reports with their diffs', async () => {
    const customerId = await createCustomer({ name: 'Audit Erin' });
    let order = await createWorkOrder(customerId, { title: 'Heat pump noise' });
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      ...staffActor(),
      action: 'created',
      entityLabel: order.workOrderNumber,
      changes: { title: [null, 'Heat pump noise'], status: [null, 'pending'], customerId: [null, customerId] },
    });

    const edited = await api('PUT', `/api/admin/work-orders/${order.id}`, {
      title: 'Heat pump buzzing',
      description: order.description,
      serviceType: order.serviceType,
      priority: 'high',
      serviceDate: order.serviceDate,
      timePreference: order.timePreference,
      notes: order.notes ?? '',
      technicianId: null,
      equipmentId: null,
      expectedUpdatedAt: order.updatedAt,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    order = edited.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      action: 'updated',
      changes: { title: ['Heat pump noise', 'Heat pump buzzing'], priority: ['normal', 'high'] },
    });
    expect(Object.keys((await lastEntryOf('work_order', order.id)).changes).sort()).toEqual(['priority', 'title']);

    const notes = await api('PUT', `/api/admin/work-orders/${order.id}/notes`, { notes: 'Gate code 1234', expectedUpdatedAt: order.updatedAt });
    order = notes.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({ action: 'notes_updated', changes: { notes: [null, 'Gate code 1234'] } });

    const scheduled = await api('POST', `/api/admin/work-orders/${order.id}/schedule`, {
      date: today,
      startTime: '09:00',
      durationHours: 2,
      technicianId,
      expectedUpdatedAt: order.updatedAt,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    order = scheduled.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      action: 'scheduled',
      changes: {
        status: ['pending', 'scheduled'],
        technicianId: [null, technicianId],
        scheduledStartTime: [null, '09:00:00'],
        scheduledEndTime: [null, '11:00:00'],
      },
    });

    const started = await api('POST', `/api/admin/work-orders/${order.id}/status`, { status: 'in-progress', expectedUpdatedAt: order.updatedAt });
    expect(started.statusCode, started.body).toBe(200);
    order = started.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({ action: 'status_changed', changes: { status: ['scheduled', 'in-progress'] } });

    const task = await api('POST', `/api/admin/work-orders/${order.id}/tasks`, { taskName: 'Check capacitor' });
    expect(task.statusCode, task.body).toBe(201);
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({ action: 'task_added', changes: { taskName: [null, 'Check capacitor'], status: [null, 'pending'] } });
    const taskDone = await api('PATCH', `/api/admin/work-orders/${order.id}/tasks/${task.json().task.id}`, { status: 'completed', timeSpentMinutes: 15 });
    expect(taskDone.statusCode, taskDone.body).toBe(200);
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      action: 'task_updated',
      changes: { 'Check capacitor: status': ['pending', 'completed'], 'Check capacitor: timeSpentMinutes': [null, 15] },
    });

    const report = await api('POST', `/api/admin/work-orders/${order.id}/inspection-reports`, { mca: 20, mocp: 30, inspectionItems: ['filter_replaced'] });
    expect(report.statusCode, report.body).toBe(201);
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({ action: 'inspection_added', changes: { mca: [null, 20], inspectionItems: [null, ['filter_replaced']] } });

    // A refused transition (in progress cannot go back to pending) leaves no entry.
    const count = (await entriesOf('work_order', order.id)).length;
    const refused = await api('POST', `/api/admin/work-orders/${order.id}/status`, { status: 'pending', expectedUpdatedAt: order.updatedAt });
    expect(refused.statusCode).toBe(409);
    expect(await entriesOf('work_order', order.id)).toHaveLength(count);
  });

  it('records the calendar: create with a time, drag, assign, edit appointment, and delete', async () => {
    const customerId = await createCustomer({ name: 'Audit Finn' });
    let order = await createWorkOrder(customerId, { serviceDate: '2031-05-01', startTime: '08:00', endTime: '09:00', technicianId });
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({ action: 'created', changes: { technicianId: [null, technicianId], scheduledStartTime: [null, '08:00:00'] } });

    const dragged = await api('POST', `/api/admin/work-orders/${order.id}/reschedule`, {
      serviceDate: '2031-05-02',
      startTime: '10:00',
      endTime: '11:30',
      expectedUpdatedAt: order.updatedAt,
    });
    expect(dragged.statusCode, dragged.body).toBe(200);
    order = dragged.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      action: 'rescheduled',
      changes: {
        serviceDate: ['2031-05-01', '2031-05-02'],
        scheduledStartTime: ['08:00:00', '10:00:00'],
        scheduledEndTime: ['09:00:00', '11:30:00'],
        estimatedDuration: [1, 1.5],
      },
    });

    const unassigned = await api('POST', `/api/admin/work-orders/${order.id}/assign`, { technicianId: null, expectedUpdatedAt: order.updatedAt });
    order = unassigned.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({ action: 'assigned', changes: { technicianId: [technicianId, null] } });

    const appointment = await api('PUT', `/api/admin/work-orders/${order.id}/appointment`, {
      customerId,
      title: 'AC not cooling (upstairs)',
      serviceType: order.serviceType,
      priority: order.priority,
      serviceDate: order.serviceDate,
      startTime: '10:00',
      endTime: '11:30',
      description: order.description,
      technicianId: null,
      status: 'scheduled',
      notes: '',
      expectedUpdatedAt: order.updatedAt,
    });
    expect(appointment.statusCode, appointment.body).toBe(200);
    order = appointment.json().workOrder;
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      action: 'appointment_updated',
      changes: { title: ['AC not cooling', 'AC not cooling (upstairs)'], status: ['pending', 'scheduled'] },
    });

    const deleted = await api('DELETE', `/api/admin/work-orders/${order.id}?expectedUpdatedAt=${encodeURIComponent(order.updatedAt)}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await lastEntryOf('work_order', order.id)).toMatchObject({
      ...staffActor(),
      action: 'deleted',
      entityLabel: order.workOrderNumber,
      changes: { title: ['AC not cooling (upstairs)', null], status: ['scheduled', null] },
    });
  });

  it('a new customer made with the work order gets its own entry', async () => {
    const response = await api('POST', '/api/admin/work-orders', {
      customer: customerForm({ name: 'Audit Gina', phone: '(843) 555-0177' }),
      title: 'Tune-up',
      description: 'Yearly.',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { customer, workOrder } = response.json();
    expect(await lastEntryOf('customer', customer.id)).toMatchObject({ action: 'created', changes: { name: [null, 'Audit Gina'] } });
    expect(await lastEntryOf('work_order', workOrder.id)).toMatchObject({ action: 'created', changes: { customerId: [null, customer.id] } });
  });
});

describe('leads and the public site', () => {
  it('records a website estimate request as the website visitor, its status change and its conversion', async () => {
    const submitted = await context.app.inject({
      method: 'POST',
      url: '/api/public/estimate-requests',
      payload: { ...validEstimateRequest, name: 'Audit Hana', email: 'hana@example.com', phone: '(843) 555-0166', description: 'Warm air.' },
      remoteAddress: freshAddress(),
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const leadId = submitted.json().request.id;
    expect(await lastEntryOf('lead', leadId)).toMatchObject({
      actorId: null,
      actorName: 'Website visitor',
      action: 'created',
      entityLabel: 'Audit Hana',
      changes: { name: [null, 'Audit Hana'], status: [null, 'pending'], source: [null, 'website'] },
    });

    const lead = (await api('GET', `/api/admin/leads/estimate/${leadId}`)).json().lead;
    const contacted = await api('POST', `/api/admin/leads/estimate/${leadId}/status`, { status: 'contacted', expectedUpdatedAt: lead.updatedAt });
    expect(contacted.statusCode, contacted.body).toBe(200);
    expect(await lastEntryOf('lead', leadId)).toMatchObject({ ...staffActor(), action: 'status_changed', changes: { status: ['pending', 'contacted'] } });

    const proposal = (await api('GET', `/api/admin/leads/estimate/${leadId}/conversion`)).json();
    const converted = await api('POST', `/api/admin/leads/estimate/${leadId}/convert`, {
      customer: { mode: 'new', ...proposal.newCustomer },
      workOrder: proposal.workOrder,
    });
    expect(converted.statusCode, converted.body).toBe(201);
    const result = converted.json();
    expect(await lastEntryOf('lead', leadId)).toMatchObject({
      ...staffActor(),
      action: 'converted',
      changes: {
        status: ['contacted', 'scheduled'],
        workflowStage: [null, 'converted_to_work_order'],
        customerId: [null, result.customer.id],
        workOrderId: [null, result.workOrder.id],
      },
    });
    expect(await lastEntryOf('customer', result.customer.id)).toMatchObject({ ...staffActor(), action: 'created' });
    expect(await lastEntryOf('work_order', result.workOrder.id)).toMatchObject({ ...staffActor(), action: 'created', changes: { estimateRequestId: [null, leadId] } });
  });

  it('records a chat booking as the chat assistant: the customer, the work order and the chat lead', async () => {
    const booked = await context.app.inject({
      method: 'POST',
      url: '/api/public/chat/bookings',
      payload: {
        sessionId: 'session-audit-0001',
        name: 'Audit Ivy',
        phone: '843.555.0155',
        email: 'ivy@example.com',
        address: '9 Lighthouse Ln, Hilton Head Island, SC 29928',
        serviceType: 'repair',
        description: 'Grinding noise',
        preferredDate: '',
      },
      remoteAddress: freshAddress(),
    });
    expect(booked.statusCode, booked.body).toBe(201);
    // The public answer names no customer (decision 018-a): the booking's customer is read from its work order.
    const [{ customer_id: customerId }] = (await context.database.query<{ customer_id: string }>(
      'select customer_id from work_orders where work_order_number = $1',
      [booked.json().workOrderNumber],
    )) as [{ customer_id: string }];
    expect(await lastEntryOf('customer', customerId)).toMatchObject({ actorId: null, actorName: 'Chat assistant', action: 'created', changes: { name: [null, 'Audit Ivy'] } });
    const [order] = await context.database.query<{ id: string; work_order_number: string }>('select id, work_order_number from work_orders where customer_id = $1', [customerId]);
    expect(await lastEntryOf('work_order', order!.id)).toMatchObject({
      actorName: 'Chat assistant',
      action: 'created',
      entityLabel: order!.work_order_number,
      changes: { status: [null, 'pending'], serviceType: [null, 'repair'] },
    });
    const [chatLead] = await context.database.query<{ id: string }>('select id from ai_leads where customer_id = $1', [customerId]);
    expect(await lastEntryOf('chat_lead', chatLead!.id)).toMatchObject({ actorName: 'Chat assistant', action: 'created', changes: { workOrderId: [null, order!.id] } });
  });
});

describe('the activity log API', () => {
  it('lists newest first, filters by record type and record, pages, and refuses bad filters', async () => {
    const all = (await api('GET', '/api/admin/settings/activity')).json() as AuditListResponse;
    expect(all.entries.length).toBeGreaterThan(10);
    const times = all.entries.map((entry) => entry.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);

    const customersOnly = (await api('GET', '/api/admin/settings/activity?entityType=customer')).json() as AuditListResponse;
    expect(customersOnly.entries.every((entry) => entry.entityType === 'customer')).toBe(true);

    const page1 = (await api('GET', '/api/admin/settings/activity?page=1')).json() as AuditListResponse;
    const page2 = (await api('GET', '/api/admin/settings/activity?page=2')).json() as AuditListResponse;
    expect(page1.pageSize).toBe(50);
    expect(page1.hasMore).toBe(page2.entries.length > 0);
    const ids = new Set(page1.entries.map((entry) => entry.id));
    expect(page2.entries.some((entry) => ids.has(entry.id))).toBe(false);

    expect((await api('GET', '/api/admin/settings/activity?entityType=spaceship')).statusCode).toBe(400);
    expect((await api('GET', '/api/admin/settings/activity?page=0')).statusCode).toBe(400);
    expect((await context.app.inject({ method: 'GET', url: '/api/admin/settings/activity' })).statusCode).toBe(401);
  });
});

describe('atomicity', () => {
  it('a change that fails after its entry was written leaves neither (one transaction)', async () => {
    const id = await createCustomer({ name: 'Audit Jay' });
    // The audit insert fails (after the customer's row was already updated in the transaction).
    await context.database.query(`create or replace function audit_test_fail() returns trigger language plpgsql as $$
      begin if new.entity_label = 'Audit Jay Broken' then raise exception 'refused by test trigger'; end if; return new; end; $$`);
    await context.database.query(`create trigger audit_test_fail after insert on audit_log for each row execute function audit_test_fail()`);
    try {
      const response = await api('PUT', `/api/admin/customers/${id}`, customerForm({ name: 'Audit Jay Broken' }));
      expect(response.statusCode).toBe(500);
    } finally {
      await context.database.query('drop trigger audit_test_fail on audit_log');
    }
    expect((await entriesOf('customer', id)).map((entry) => entry.action)).toEqual(['created']);
    const [row] = await context.database.query<{ name: string }>('select name from customers where id = $1', [id]);
    expect(row?.name).toBe('Audit Jay');
  });
});
