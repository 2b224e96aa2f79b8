import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '#tests/support/test-app.ts';

// An attacker on the public internet tries to learn who is a customer through the chat booking
// (issue 15, must fix 1; decision 018-a): by comparing answers for a phone that belongs to a stored
// customer and one that does not, by replaying someone's idempotency key, and by smuggling fields.

let context: TestContext;
let nextAddress = 10;
const freshAddress = () => `127.0.8.${(nextAddress += 1)}`;

const victim = { name: 'Vera Victim', phone: '(843) 555-0101', email: 'vera.victim@example.com', address: '5 Private Way' };
let victimId: string;

function book(body: Record<string, unknown>, key: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/public/chat/bookings',
    payload: {
      sessionId: `probe-${key}`,
      name: 'Eve Prober',
      email: '',
      address: '1 Probe St, Bluffton, SC 29910',
      serviceType: 'inspection',
      description: 'Just checking',
      ...body,
    },
    headers: { 'idempotency-key': key },
    remoteAddress: freshAddress(),
  });
}

/** The answer with the work order's own number masked: what must not differ between the two probes. */
function shapeOf(response: { statusCode: number; headers: Record<string, unknown>; json: () => { message: string; workOrderNumber: string } }) {
  const body = response.json();
  return {
    status: response.statusCode,
    contentType: response.headers['content-type'],
    cacheControl: response.headers['cache-control'],
    keys: Object.keys(body).sort(),
    message: body.message.replaceAll(body.workOrderNumber, '<number>'),
  };
}

function expectNothingAboutVictim(text: string) {
  for (const secret of [victimId, victim.name, 'Vera', victim.email, victim.address, 'Private Way']) expect(text).not.toContain(secret);
}

beforeAll(async () => {
  context = await createTestApp({ env: { PUBLIC_FORM_LIMIT: '100' } });
  const [row] = await context.database.query<{ id: string }>(
    `insert into customers (name, phone, email, address, city, state, type) values ($1, $2, $3, $4, 'Beaufort', 'SC', 'residential') returning id`,
    [victim.name, victim.phone, victim.email, victim.address],
  );
  victimId = row!.id;
});
afterAll(() => context.close());

describe('chat booking enumeration', () => {
  it('a matched and an unmatched phone get answers of the same shape that say nothing about the stored customer', async () => {
    const matched = await book({ phone: '843-555-0101' }, 'probe-key-0001');
    const unmatched = await book({ phone: '843-555-0102' }, 'probe-key-0002');
    expect(matched.statusCode).toBe(201);
    expect(shapeOf(matched)).toEqual(shapeOf(unmatched));
    expectNothingAboutVictim(matched.body);
    expectNothingAboutVictim(JSON.stringify(matched.headers));
  });

  it('a matched and an unmatched e-mail get answers of the same shape', async () => {
    const matched = await book({ phone: '843-555-0103', email: 'VERA.victim@example.com' }, 'probe-key-0003');
    const unmatched = await book({ phone: '843-555-0104', email: 'someone.else@example.com' }, 'probe-key-0004');
    expect(shapeOf(matched)).toEqual(shapeOf(unmatched));
    expectNothingAboutVictim(matched.body);
  });

  it('replaying a key (even with other contents) returns only the first answer, never a customer', async () => {
    const first = await book({ phone: victim.phone }, 'probe-key-0005');
    const replay = await book({ phone: '843-555-0199', name: 'Someone Else' }, 'probe-key-0005');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expectNothingAboutVictim(replay.body);
  });

  it('a booking with the stored customer\'s phone and e-mail changes nothing on the stored customer', async () => {
    const [before] = await context.database.query(`select * from customers where id = $1`, [victimId]);
    await book({ phone: victim.phone, email: victim.email, name: 'Mallory Overwrite', address: '666 Attacker Rd' }, 'probe-key-0006');
    const [after] = await context.database.query(`select * from customers where id = $1`, [victimId]);
    expect(after).toEqual(before);
    const onVictim = await context.database.query(`select 1 from work_orders where customer_id = $1`, [victimId]);
    expect(onVictim).toHaveLength(0);
  });

  it('the follow-up chat message ignores a customer id the browser claims', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/public/chat/messages',
      payload: { message: 'hello', sessionId: 'probe-session-claim', customer: { id: victimId, name: 'x' } },
      remoteAddress: freshAddress(),
    });
    expect(response.statusCode).toBe(200);
    expectNothingAboutVictim(response.body);
    const linked = await context.database.query(`select 1 from ai_conversations where customer_id = $1`, [victimId]);
    expect(linked).toHaveLength(0);
  });

  it('the staff choice is not reachable without a session, even through an encoded path', async () => {
    const [row] = await context.database.query<{ id: string; updated_at: string }>(`select id, updated_at::text from work_orders where possible_customer_id = $1 limit 1`, [victimId]);
    for (const url of [`/api/admin/work-orders/${row!.id}/customer-match`, `/api/%61dmin/work-orders/${row!.id}/customer-match`]) {
      const response = await context.app.inject({ method: 'POST', url, payload: { decision: 'same', expectedUpdatedAt: new Date().toISOString() } });
      expect(response.statusCode).toBe(401);
    }
    const [still] = await context.database.query<{ possible_customer_id: string }>(`select possible_customer_id from work_orders where id = $1`, [row!.id]);
    expect(still!.possible_customer_id).toBe(victimId);
  });
});
