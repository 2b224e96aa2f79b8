import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates.ts';
import { leadMessages, type LeadConversionProposal, type LeadFilter, type LeadListItem, type LeadListResponse, type LeadStats } from '#shared/lead.ts';
import { createStaff, createTestApp, signIn, type TestContext } from '#tests/support/test-app.ts';

let context: TestContext;
let cookie: string;
let today: string;

function api(method: 'GET' | 'POST', url: string, payload?: unknown, options: { signedIn?: boolean } = {}) {
  return context.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: options.signedIn === false ? {} : { cookie },
  });
}

type EstimateFixture = {
  name: string;
  email?: string;
  phone?: string;
  address?: string;
  serviceType?: string;
  description?: string | null;
  preferredDate?: string | null;
  preferredTime?: string | null;
  status?: string;
  priority?: string;
  workflowStage?: string | null;
  /** Hours before now. */
  createdHoursAgo?: number;
  respondedHoursAgo?: number | null;
};

/** An estimate request stored as given (the fixture for rules that depend on status and time). */
async function insertEstimate(fixture: EstimateFixture): Promise<string> {
  const [row] = await context.database.query<{ id: string }>(
    `insert into estimate_requests (name, email, phone, address, service_type, description, preferred_date, preferred_time, status, priority,
       workflow_stage, created_at, updated_at, responded_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() - make_interval(secs => $12 * 3600), now() - make_interval(secs => $12 * 3600),
       case when $13::float8 is null then null else now() - make_interval(secs => $13::float8 * 3600) end)
     returning id`,
    [
      fixture.name,
      fixture.email ?? `${fixture.name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`,
      fixture.phone ?? '(843) 555-0111',
      fixture.address ?? '12 Oak St, Hilton Head Island, SC 29926',
      fixture.serviceType ?? 'maintenance',
      fixture.description ?? null,
      fixture.preferredDate ?? null,
      fixture.preferredTime ?? null,
      fixture.status ?? 'pending',
      fixture.priority ?? 'normal',
      fixture.workflowStage ?? null,
      fixture.createdHoursAgo ?? 1,
      fixture.respondedHoursAgo ?? null,
    ],
  );
  return row!.id;
}

async function insertCustomer(name: string, phone = '843-555-0999', email: string | null = null): Promise<string> {
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, email, address) values ($1, $2, $3, '1 Chat Way') returning id`,
    [name, phone, email],
  );
  return row!.id;
}

async function insertChatLead(customerName: string, values: { urgency: string; status?: string; score?: number; withWorkOrder?: boolean }): Promise<string> {
  const customerId = await insertCustomer(customerName);
  let workOrderId: string | null = null;
  if (values.withWorkOrder) {
    const [order] = await context.database.query<{ id: string }>(
      `insert into work_orders (customer_id, title, service_date) values ($1, 'Chat booking', current_date) returning id`,
      [customerId],
    );
    workOrderId = order!.id;
  }
  const [row] = await context.database.query<{ id: string }>(
    `insert into ai_leads (customer_id, conversation_id, lead_score, urgency, service_type, status, notes, work_order_id)
     values ($1, $2, $3, $4, 'repair', $5, 'AC not cooling', $6) returning id`,
    [customerId, `session-${customerName}`, values.score ?? 7, values.urgency, values.status ?? 'new', workOrderId],
  );
  return row!.id;
}

async function list(params: Record<string, string>): Promise<LeadListResponse> {
  const response = await api('GET', `/api/admin/leads?${new URLSearchParams({ pageSize: '100', ...params })}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const names = (response: LeadListResponse) => response.leads.map((lead) => lead.name).sort();

async function estimateLead(id: string): Promise<LeadListItem> {
  const response = await api('GET', `/api/admin/leads/estimate/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().lead;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await context.database.query<{ n: number | string }>(sql, params);
  return Number(row!.n);
}

beforeAll(async () => {
  context = await createTestApp();
  await createStaff(context.database);
  cookie = await signIn(context.app);
  today = todayIn(context.config.businessTimeZone);
});

afterAll(async () => {
  await context?.close();
});

describe('lead metrics', () => {
  // First in the file: the database holds exactly this data set.
  it('computes every count, the average response time and the conversion rate from the data', async () => {
    expect((await api('GET', '/api/admin/leads/stats')).json()).toMatchObject({ averageResponseHours: null, conversionRate: 0 });

    await insertEstimate({ name: 'Metric converted', status: 'scheduled', workflowStage: 'converted_to_work_order', createdHoursAgo: 4, respondedHoursAgo: 2 });
    await insertEstimate({ name: 'Metric contacted', status: 'contacted', createdHoursAgo: 10, respondedHoursAgo: 4 });
    await insertEstimate({ name: 'Metric urgent', status: 'pending', priority: 'urgent', serviceType: 'ac-repair' });
    await insertEstimate({ name: 'Metric pending', status: 'pending' });
    await insertChatLead('Metric chat open', { urgency: 'high' });
    await insertChatLead('Metric chat booked', { urgency: 'low', status: 'converted', withWorkOrder: true });

    const response = await api('GET', '/api/admin/leads/stats');
    expect(response.statusCode).toBe(200);
    const stats: LeadStats = response.json();
    expect(stats.counts).toEqual({ active: 4, urgent: 2, new: 3, contacted: 1, quoted: 0, converted: 2, all: 6 });
    // (2 h + 6 h) / 2 answered requests; the unanswered and the chat leads do not count.
    expect(stats.averageResponseHours).toBe(4);
    expect(stats.respondedCount).toBe(2);
    // 1 converted of 4 estimate requests.
    expect(stats.conversionRate).toBe(25);
    expect(stats.convertedCount).toBe(1);
    expect(stats.estimateRequestCount).toBe(4);
    expect(stats.chatLeadCount).toBe(2);
  });
});

describe('lead list', () => {
  const tag = 'Tabs';
  beforeAll(async () => {
    const cases: [string, string, string, string | null][] = [
      ['pending-normal', 'pending', 'normal', null],
      ['pending-urgent', 'pending', 'urgent', null],
      ['contacted-urgent', 'contacted', 'urgent', null],
      ['contacted-normal', 'contacted', 'normal', null],
      ['quoted-urgent', 'quoted', 'urgent', null],
      ['scheduled-urgent', 'scheduled', 'urgent', null],
      ['completed', 'completed', 'normal', null],
      ['cancelled', 'cancelled', 'urgent', null],
      ['converted', 'scheduled', 'normal', 'converted_to_work_order'],
    ];
    for (const [name, status, priority, workflowStage] of cases) {
      await insertEstimate({ name: `${tag} ${name}`, status, priority, workflowStage, serviceType: priority === 'urgent' ? 'heating-repair' : 'maintenance' });
    }
    await insertChatLead(`${tag} chat new-high`, { urgency: 'high', score: 9 });
    await insertChatLead(`${tag} chat new-low`, { urgency: 'low', score: 4 });
    await insertChatLead(`${tag} chat converted`, { urgency: 'emergency', status: 'converted', withWorkOrder: true });
  });

  const expected: Record<LeadFilter, string[]> = {
    active: ['pending-normal', 'pending-urgent', 'contacted-urgent', 'contacted-normal', 'quoted-urgent', 'chat new-high', 'chat new-low'],
    urgent: ['pending-urgent', 'contacted-urgent', 'chat new-high'],
    new: ['pending-normal', 'pending-urgent', 'chat new-high', 'chat new-low'],
    contacted: ['contacted-urgent', 'contacted-normal'],
    quoted: ['quoted-urgent'],
    converted: ['converted', 'chat converted'],
    all: [
      'pending-normal', 'pending-urgent', 'contacted-urgent', 'contacted-normal', 'quoted-urgent', 'scheduled-urgent', 'completed', 'cancelled',
      'converted', 'chat new-high', 'chat new-low', 'chat converted',
    ],
  };

  for (const [filter, members] of Object.entries(expected)) {
    it(`the ${filter} tab follows its rule`, async () => {
      const response = await list({ filter, search: tag });
      expect(names(response)).toEqual(members.map((member) => `${tag} ${member}`).sort());
      expect(response.total).toBe(members.length);
    });
  }

  it('defaults to the Active tab, newest first, and pages on the server', async () => {
    const all = await list({ search: tag });
    expect(all.leads).toHaveLength(expected.active.length);
    const created = all.leads.map((lead) => lead.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    const first = await list({ filter: 'all', search: tag, pageSize: '5', page: '1' });
    const third = await list({ filter: 'all', search: tag, pageSize: '5', page: '3' });
    expect(first.leads).toHaveLength(5);
    expect(first.total).toBe(12);
    expect(third.leads).toHaveLength(2);
    expect(third.total).toBe(12);
  });

  it('shows chat leads with their score, urgency, customer and work order', async () => {
    const { leads } = await list({ filter: 'all', search: `${tag} chat` });
    const high = leads.find((lead) => lead.name === `${tag} chat new-high`)!;
    expect(high).toMatchObject({ kind: 'chat', leadScore: 9, urgency: 'high', priority: 'urgent', isConverted: false, source: 'ai_chat' });
    expect(high.customer?.name).toBe(`${tag} chat new-high`);
    expect(high.conversationId).toBe(`session-${tag} chat new-high`);
    const booked = leads.find((lead) => lead.name === `${tag} chat converted`)!;
    expect(booked.isConverted).toBe(true);
    expect(booked.workOrder?.workOrderNumber).toMatch(/^WO-\d+$/);
  });

  it('scores estimate requests by the spec rule', async () => {
    const { leads } = await list({ filter: 'all', search: `${tag} pending-urgent` });
    // base 5 + 3 urgent (heating-repair, website).
    expect(leads[0]).toMatchObject({ kind: 'estimate', leadScore: 8, urgency: null });
  });

  it('searches name, e-mail, phone digits, address and description, case-insensitively and literally', async () => {
    await insertEstimate({ name: 'Searchable Sam', email: 'Sam.Weird@Example.org', phone: '(843) 555-4242', address: '99 Marsh Hen Rd, Bluffton, SC', description: 'Water dripping from the 50% vent' });
    for (const search of ['searchable sam', 'SAM.WEIRD@', '8435554242', '555-4242', 'marsh hen', 'DRIPPING', '50%']) {
      expect(names(await list({ filter: 'all', search })), search).toContain('Searchable Sam');
    }
    expect(names(await list({ filter: 'all', search: '5_%' }))).toEqual([]);
    expect(names(await list({ filter: 'all', search: 'nobody-matches-this' }))).toEqual([]);
  });

  it('refuses an unknown tab', async () => {
    expect((await api('GET', '/api/admin/leads?filter=hot')).statusCode).toBe(400);
  });
});

describe('lead status', () => {
  it('saves any status in any order with updated_at, and remembers the first answer', async () => {
    const id = await insertEstimate({ name: 'Status Sue', createdHoursAgo: 3 });
    const before = await estimateLead(id);
    expect(before.respondedAt).toBeNull();

    const quoted = await api('POST', `/api/admin/leads/estimate/${id}/status`, { status: 'quoted', expectedUpdatedAt: before.updatedAt });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const afterQuote: LeadListItem = quoted.json().lead;
    expect(afterQuote.status).toBe('quoted');
    expect(new Date(afterQuote.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
    expect(afterQuote.respondedAt).not.toBeNull();

    // Back to pending is allowed (no enforced order); the first answer stays recorded.
    const back = await api('POST', `/api/admin/leads/estimate/${id}/status`, { status: 'pending', expectedUpdatedAt: afterQuote.updatedAt });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().lead).toMatchObject({ status: 'pending', respondedAt: afterQuote.respondedAt });
  });

  it('refuses a change made on a stale copy with 409 and the current values', async () => {
    const id = await insertEstimate({ name: 'Stale Steve' });
    const seen = await estimateLead(id);
    const first = await api('POST', `/api/admin/leads/estimate/${id}/status`, { status: 'contacted', expectedUpdatedAt: seen.updatedAt });
    expect(first.statusCode).toBe(200);
    const stale = await api('POST', `/api/admin/leads/estimate/${id}/status`, { status: 'cancelled', expectedUpdatedAt: seen.updatedAt });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current).toMatchObject({ id, status: 'contacted' });
    expect((await estimateLead(id)).status).toBe('contacted');
  });

  it('validates the status and the id', async () => {
    const id = await insertEstimate({ name: 'Invalid Ivy' });
    const seen = await estimateLead(id);
    expect((await api('POST', `/api/admin/leads/estimate/${id}/status`, { status: 'won', expectedUpdatedAt: seen.updatedAt })).statusCode).toBe(400);
    expect((await api('POST', `/api/admin/leads/estimate/${id}/status`, { status: 'quoted' })).statusCode).toBe(400);
    const missing = await api('POST', '/api/admin/leads/estimate/00000000-0000-4000-8000-000000000000/status', { status: 'quoted', expectedUpdatedAt: seen.updatedAt });
    expect(missing.statusCode).toBe(404);
    expect((await api('GET', '/api/admin/leads/estimate/not-a-uuid')).statusCode).toBe(404);
  });
});

describe('conversion to a work order', () => {
  async function proposal(id: string): Promise<LeadConversionProposal> {
    const response = await api('GET', `/api/admin/leads/estimate/${id}/conversion`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  const convert = (id: string, body: unknown) => api('POST', `/api/admin/leads/estimate/${id}/convert`, body);

  function daysFromToday(days: number): string {
    const date = new Date(`${today}T12:00:00Z`);
    date.setUTCDate(date.getUTCDate() + days);
    return date.toISOString().slice(0, 10);
  }

  it('links an existing customer matched by phone digits and creates the work order from the lead', async () => {
    const customerId = await insertCustomer('Existing Erin', '843.555.7788', 'erin@example.com');
    const preferredDate = daysFromToday(3);
    const id = await insertEstimate({
      name: 'Erin (web form)',
      email: 'someone.else@example.com',
      phone: '(843) 555-7788',
      serviceType: 'heating-repair',
      priority: 'urgent',
      description: 'Furnace short-cycles at night.',
      preferredDate,
      preferredTime: 'evening',
    });

    const proposed = await proposal(id);
    expect(proposed.matchedCustomer).toMatchObject({ id: customerId, name: 'Existing Erin' });
    expect(proposed.workOrder).toMatchObject({
      serviceType: 'repair',
      priority: 'high',
      serviceDate: preferredDate,
      timePreference: 'anytime',
      description: 'Furnace short-cycles at night.',
    });
    expect(proposed.workOrder.notes).toContain('Evening (4PM-7PM)');

    const customersBefore = await count('select count(*) as n from customers');
    const response = await convert(id, { customer: { mode: 'existing', customerId }, workOrder: { ...proposed.workOrder, title: 'Furnace repair (adjusted)' } });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json();
    expect(result).toMatchObject({ customer: { id: customerId }, isNewCustomer: false });
    expect(await count('select count(*) as n from customers')).toBe(customersBefore);

    expect(result.lead).toMatchObject({
      id,
      workflowStage: 'converted_to_work_order',
      status: 'scheduled',
      isConverted: true,
      customer: { id: customerId },
      workOrder: { id: result.workOrder.id, status: 'pending' },
    });
    expect(result.lead.respondedAt).not.toBeNull();

    const detail = await api('GET', `/api/admin/work-orders/${result.workOrder.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().workOrder).toMatchObject({
      customerId,
      estimateRequestId: id,
      status: 'pending',
      title: 'Furnace repair (adjusted)',
      serviceType: 'repair',
      priority: 'high',
      serviceDate: preferredDate,
      timePreference: 'anytime',
      description: 'Furnace short-cycles at night.',
    });
    const [stored] = await context.database.query<{ customer_id: string; work_order_id: string; workflow_stage: string }>(
      'select customer_id, work_order_id, workflow_stage from estimate_requests where id = $1',
      [id],
    );
    expect(stored).toEqual({ customer_id: customerId, work_order_id: result.workOrder.id, workflow_stage: 'converted_to_work_order' });
    expect(names(await list({ filter: 'converted', search: 'Erin (web form)' }))).toEqual(['Erin (web form)']);
    expect(names(await list({ filter: 'active', search: 'Erin (web form)' }))).toEqual([]);
  });

  it('matches by e-mail in any case too', async () => {
    const customerId = await insertCustomer('Mail Match Mo', '843-555-0001', 'mo@example.com');
    const id = await insertEstimate({ name: 'Mo', email: 'MO@Example.com', phone: '(843) 555-3131' });
    expect((await proposal(id)).matchedCustomer?.id).toBe(customerId);
  });

  it('creates the customer from the lead when none matches', async () => {
    const id = await insertEstimate({
      name: 'Brand New Bea',
      email: 'bea.new@example.com',
      phone: '(843) 555-6060',
      address: '4 Sea Pines Dr, Hilton Head Island, SC 29928',
      serviceType: 'ac-installation',
      preferredDate: daysFromToday(-2),
      preferredTime: 'morning',
    });
    const proposed = await proposal(id);
    expect(proposed.matchedCustomer).toBeNull();
    expect(proposed.newCustomer).toMatchObject({
      name: 'Brand New Bea',
      phone: '(843) 555-6060',
      email: 'bea.new@example.com',
      address: '4 Sea Pines Dr',
      city: 'Hilton Head Island',
      state: 'SC',
      zip: '29928',
    });
    // A preferred date already past becomes today; installation, normal priority, morning.
    expect(proposed.workOrder).toMatchObject({ serviceType: 'installation', priority: 'normal', serviceDate: today, timePreference: 'morning' });
    expect(proposed.workOrder.description).toBe('AC Installation requested.');

    const response = await convert(id, { customer: { mode: 'new', ...proposed.newCustomer }, workOrder: proposed.workOrder });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json();
    expect(result.isNewCustomer).toBe(true);
    const [customer] = await context.database.query<{ id: string; city: string; zip: string }>(
      `select id, city, zip from customers where name = 'Brand New Bea'`,
    );
    expect(customer).toMatchObject({ id: result.customer.id, city: 'Hilton Head Island', zip: '29928' });
    expect(result.lead.customer.id).toBe(customer!.id);
    const profile = await api('GET', `/api/admin/customers/${customer!.id}`);
    expect(profile.json().workOrders.map((order: { id: string }) => order.id)).toEqual([result.workOrder.id]);
  });

  it('refuses a second conversion with 409', async () => {
    const customerId = await insertCustomer('Twice Tom');
    const id = await insertEstimate({ name: 'Twice Tom lead' });
    const body = { customer: { mode: 'existing', customerId }, workOrder: (await proposal(id)).workOrder };
    expect((await convert(id, body)).statusCode).toBe(201);
    const again = await convert(id, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(leadMessages.alreadyConverted);
    expect(await count('select count(*) as n from work_orders where estimate_request_id = $1', [id])).toBe(1);
  });

  it('lets exactly one of two simultaneous conversions win', async () => {
    const id = await insertEstimate({ name: 'Race Rita', phone: '(843) 555-8181', email: 'rita@example.com' });
    const proposed = await proposal(id);
    const body = { customer: { mode: 'new', ...proposed.newCustomer }, workOrder: proposed.workOrder };
    const answers = await Promise.all([convert(id, body), convert(id, body)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await count('select count(*) as n from work_orders where estimate_request_id = $1', [id])).toBe(1);
    expect(await count(`select count(*) as n from customers where name = 'Race Rita'`)).toBe(1);
  });

  it('leaves nothing behind when the work order is refused inside the transaction', async () => {
    const [inactive] = await context.database.query<{ id: string }>(`insert into technicians (name, active) values ('Gone Gary', false) returning id`);
    const id = await insertEstimate({ name: 'Rollback Rob', phone: '(843) 555-9191', email: 'rob@example.com' });
    const proposed = await proposal(id);
    const workOrdersBefore = await count('select count(*) as n from work_orders');
    const response = await convert(id, { customer: { mode: 'new', ...proposed.newCustomer }, workOrder: { ...proposed.workOrder, technicianId: inactive!.id } });
    expect(response.statusCode).toBe(400);
    expect(await count(`select count(*) as n from customers where name = 'Rollback Rob'`)).toBe(0);
    expect(await count('select count(*) as n from work_orders')).toBe(workOrdersBefore);
    expect(await estimateLead(id)).toMatchObject({ isConverted: false, status: 'pending', customer: null, workOrder: null });
  });

  it('leaves nothing behind when the last step fails', async () => {
    const id = await insertEstimate({ name: 'Failing Fay', phone: '(843) 555-9292', email: 'fay@example.com' });
    const proposed = await proposal(id);
    // A database failure on the final update of the lead: the customer and the work order were already written.
    await context.database.query(`create function fail_lead_update() returns trigger language plpgsql as $$
      begin if new.name = 'Failing Fay' then raise exception 'forced failure'; end if; return new; end $$`);
    await context.database.query('create trigger fail_lead_update before update on estimate_requests for each row execute function fail_lead_update()');
    try {
      const workOrdersBefore = await count('select count(*) as n from work_orders');
      const response = await convert(id, { customer: { mode: 'new', ...proposed.newCustomer }, workOrder: proposed.workOrder });
      expect(response.statusCode).toBe(500);
      expect(await count(`select count(*) as n from customers where name = 'Failing Fay'`)).toBe(0);
      expect(await count('select count(*) as n from work_orders')).toBe(workOrdersBefore);
    } finally {
      await context.database.query('drop trigger fail_lead_update on estimate_requests');
      await context.database.query('drop function fail_lead_update()');
    }
    expect(await estimateLead(id)).toMatchObject({ isConverted: false, workOrder: null });
  });

  it('validates the work order and the customer before writing anything', async () => {
    const id = await insertEstimate({ name: 'Invalid Ian', phone: '(843) 555-9393', email: 'ian@example.com' });
    const proposed = await proposal(id);
    const customersBefore = await count('select count(*) as n from customers');
    const noTitle = await convert(id, { customer: { mode: 'new', ...proposed.newCustomer }, workOrder: { ...proposed.workOrder, title: '' } });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'workOrder.title' })]));
    const noPhone = await convert(id, { customer: { mode: 'new', ...proposed.newCustomer, phone: '' }, workOrder: proposed.workOrder });
    expect(noPhone.statusCode).toBe(400);
    const unknownCustomer = await convert(id, { customer: { mode: 'existing', customerId: '00000000-0000-4000-8000-000000000000' }, workOrder: proposed.workOrder });
    expect(unknownCustomer.statusCode).toBe(400);
    expect(await count('select count(*) as n from customers')).toBe(customersBefore);
    expect((await estimateLead(id)).isConverted).toBe(false);
  });

  it('answers 404 for an unknown lead or a chat lead', async () => {
    const chatLeadId = await insertChatLead('Chat only Chad', { urgency: 'low' });
    expect((await api('GET', `/api/admin/leads/estimate/${chatLeadId}/conversion`)).statusCode).toBe(404);
    await context.database.query(
      `insert into ai_conversations (conversation_id, user_message, ai_response, intent, created_at) values
         ('session-Chat only Chad', 'My AC is not cooling', 'Sorry to hear that!', 'repair_needed', now() - interval '2 minutes'),
         ('session-Chat only Chad', 'Tomorrow works', 'Booked.', 'schedule_service', now() - interval '1 minute'),
         ('another-session', 'Hours?', 'Mon-Fri 8AM-6PM', 'business_hours', now())`,
    );
    const detail = (await api('GET', `/api/admin/leads/chat/${chatLeadId}`)).json();
    expect(detail.lead).toMatchObject({ kind: 'chat', name: 'Chat only Chad' });
    expect(detail.conversation.map((turn: { userMessage: string }) => turn.userMessage)).toEqual(['My AC is not cooling', 'Tomorrow works']);
  });
});

describe('access', () => {
  it('requires a staff session for every leads call', async () => {
    const id = await insertEstimate({ name: 'Guarded Gail' });
    const calls: [('GET' | 'POST'), string][] = [
      ['GET', '/api/admin/leads'],
      ['GET', '/api/admin/leads/stats'],
      ['GET', `/api/admin/leads/estimate/${id}`],
      ['POST', `/api/admin/leads/estimate/${id}/status`],
      ['GET', `/api/admin/leads/estimate/${id}/conversion`],
      ['POST', `/api/admin/leads/estimate/${id}/convert`],
    ];
    for (const [method, url] of calls) {
      expect((await api(method, url, method === 'POST' ? {} : undefined, { signedIn: false })).statusCode, url).toBe(401);
    }
  });
});
