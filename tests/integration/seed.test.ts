import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { MAX_DEMO_AGREEMENTS, mulberry32, seedDemoData, type SeedDemoResult } from '#server/db/seed/demo-data.ts';
import { leadSources, leadStatuses, workOrderStatuses } from '#shared/enums.ts';
import { southCarolinaBounds } from '#shared/geocoding.ts';
import { createTestDatabase } from '#tests/support/test-database.ts';

// 2026-03-09 03:30 UTC is still Sunday 2026-03-08 in New York, the day daylight saving time starts:
// the seed must count days on the business calendar, not in UTC or server time.
const now = new Date('2026-03-09T03:30:00Z');
const businessToday = '2026-03-08';

const lowCountryZips: Record<string, string[]> = {
  Bluffton: ['29910', '29909'],
  'Hilton Head Island': ['29926', '29928'],
  Okatie: ['29909'],
  Beaufort: ['29902', '29906', '29907'],
  Hardeeville: ['29927'],
  Ridgeland: ['29936'],
  'Port Royal': ['29935'],
};

function shiftDate(ymd: string, days: number): string {
  const date = new Date(`${ymd}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

let database: DatabaseHandle;
let result: SeedDemoResult;

beforeAll(async () => {
  database = await createTestDatabase();
  result = await seedDemoData(database.db, { customers: 40, workOrders: 150, now, random: mulberry32(7) });
}, 60_000);
afterAll(() => database?.close());

describe('demo data', { timeout: 60_000 }, () => {
  it('creates the requested customers and work orders, the crew and the leads', async () => {
    expect(result).toMatchObject({ customers: 40, workOrders: 150, technicians: 3 });
    expect(result.estimateRequests).toBeGreaterThanOrEqual(20);
    expect(result.aiConversations).toBeGreaterThanOrEqual(15);
    expect(result.aiLeads).toBeGreaterThan(0);
    const [counts] = await database.query<{ customers: number; work_orders: number; technicians: number; colors: number }>(
      `select (select count(*)::int from customers) as customers, (select count(*)::int from work_orders) as work_orders,
              (select count(*)::int from technicians where active) as technicians,
              (select count(distinct color)::int from technicians) as colors`,
    );
    expect(counts).toEqual({ customers: 40, work_orders: 150, technicians: 3, colors: 3 });
  });

  it('makes some homeowners plan members: active agreements with their first term, covering their own equipment (issue 22)', async () => {
    const [homeowners] = await database.query<{ count: number }>(`select count(*)::int as count from customers where type = 'residential'`);
    expect(result.agreements).toBe(Math.min(MAX_DEMO_AGREEMENTS, Math.round(homeowners!.count / 7)));
    expect(result.agreements).toBeGreaterThan(0);
    const agreements = await database.query<{ type: string; status: string; terms: number; term_ok: boolean; foreign_equipment: number; number_ok: boolean }>(
      `select c.type, a.status, (select count(*)::int from maintenance_agreement_terms t where t.agreement_id = a.id and t.starts_on = a.current_term_starts_on and t.ends_on = a.current_term_ends_on) as terms,
              a.current_term_starts_on <= $1::date and a.current_term_ends_on >= $1::date as term_ok,
              (select count(*)::int from maintenance_agreement_equipment m join equipment e on e.id = m.equipment_id where m.agreement_id = a.id and e.customer_id <> a.customer_id) as foreign_equipment,
              a.agreement_number ~ '^MA-[0-9]+$' as number_ok
         from maintenance_agreements a join customers c on c.id = a.customer_id`,
      [businessToday],
    );
    expect(agreements).toHaveLength(result.agreements);
    for (const agreement of agreements) expect(agreement).toEqual({ type: 'residential', status: 'active', terms: 1, term_ok: true, foreign_equipment: 0, number_ok: true });
  });

  it('puts every customer in a Low Country town with a matching South Carolina ZIP', async () => {
    const rows = await database.query<{ city: string; state: string; zip: string; address: string; phone: string; type: string }>(
      'select city, state, zip, address, phone, type from customers',
    );
    for (const row of rows) {
      expect(lowCountryZips[row.city], row.city).toBeDefined();
      expect(lowCountryZips[row.city]).toContain(row.zip);
      expect(row.state).toBe('SC');
      expect(row.address).toMatch(/^\d+ [A-Z]/);
      expect(row.phone).toMatch(/^\(843\) \d{3}-\d{4}$/);
    }
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['residential', 'commercial']));
  });

  it('places the customers on the map near their town, a few still waiting to be geocoded', async () => {
    const rows = await database.query<{
      id: string;
      address: string;
      city: string;
      zip: string;
      latitude: number | null;
      longitude: number | null;
      status: string;
      geocoded_at: string | null;
      formatted_address: string | null;
      accuracy: string | null;
    }>(
      `select id, address, city, zip, latitude, longitude, geocoding_status as status, geocoded_at::text, formatted_address,
              geocoding_accuracy as accuracy from customers`,
    );
    const pending = rows.filter((row) => row.status === 'pending');
    // 40 customers: the newest 5 wait for the geocoder, with real South Carolina ZIPs; the rest are placed.
    expect(pending).toHaveLength(5);
    expect(rows.filter((row) => row.status === 'success')).toHaveLength(35);
    for (const row of pending) {
      expect(row).toMatchObject({ latitude: null, longitude: null, geocoded_at: null, formatted_address: null, accuracy: null });
      expect(lowCountryZips[row.city]).toContain(row.zip);
    }
    const towns: Record<string, [number, number]> = {
      Bluffton: [32.26, -80.9],
      'Hilton Head Island': [32.18, -80.75],
      Okatie: [32.33, -80.92],
      Beaufort: [32.43, -80.68],
      Hardeeville: [32.285, -81.08],
      Ridgeland: [32.48, -80.98],
      'Port Royal': [32.38, -80.69],
    };
    for (const row of rows.filter((item) => item.status === 'success')) {
      expect(row.latitude!).toBeGreaterThanOrEqual(southCarolinaBounds.minLatitude);
      expect(row.latitude!).toBeLessThanOrEqual(southCarolinaBounds.maxLatitude);
      expect(row.longitude!).toBeGreaterThanOrEqual(southCarolinaBounds.minLongitude);
      expect(row.longitude!).toBeLessThanOrEqual(southCarolinaBounds.maxLongitude);
      // Within about 12 km of the town's middle.
      const [latitude, longitude] = towns[row.city]!;
      expect(Math.abs(row.latitude! - latitude), row.city).toBeLessThan(0.11);
      expect(Math.abs(row.longitude! - longitude), row.city).toBeLessThan(0.13);
      expect(row.formatted_address).toBe(`${row.address}, ${row.city}, SC ${row.zip}, USA`);
      expect(['ROOFTOP', 'RANGE_INTERPOLATED']).toContain(row.accuracy);
      expect(row.geocoded_at).not.toBeNull();
    }
    // Some buildings have more than one customer (one pin, one map property), at the same coordinates.
    const [shared] = await database.query<{ buildings: number; spots: number }>(
      `select count(*)::int as buildings, count(distinct (latitude, longitude))::int as spots from (
         select address, city, state, min(latitude) as latitude, min(longitude) as longitude
           from customers where latitude is not null group by address, city, state
         having count(*) > 1 and count(distinct (latitude, longitude)) = 1) buildings`,
    );
    expect(shared!.buildings).toBeGreaterThanOrEqual(2);
  });

  it('covers every work order status, with unique WO numbers', async () => {
    const rows = await database.query<{ number: string; status: string }>('select work_order_number as number, status from work_orders');
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(workOrderStatuses));
    for (const row of rows) expect(row.number).toMatch(/^WO-\d+$/);
    expect(new Set(rows.map((row) => row.number)).size).toBe(rows.length);
  });

  it('keeps work order dates and times consistent with their status', async () => {
    const rows = await database.query<{
      status: string;
      service_date: string;
      start: string | null;
      end: string | null;
      technician_id: string | null;
      started: boolean;
      completed: boolean;
      created_ok: boolean;
      completed_before_now: boolean;
    }>(
      `select status, service_date::text as service_date, scheduled_start_time::text as start, scheduled_end_time::text as "end",
              technician_id, started_at is not null as started, completed_at is not null as completed,
              created_at <= $1 as created_ok, coalesce(completed_at <= $1, true) as completed_before_now
         from work_orders`,
      [now.toISOString()],
    );
    const first = shiftDate(businessToday, -42);
    const last = shiftDate(businessToday, 21);
    for (const row of rows) {
      expect(row.service_date >= first && row.service_date <= last, row.service_date).toBe(true);
      expect(row.created_ok).toBe(true);
      expect(row.completed_before_now).toBe(true);
      if (row.status === 'completed') expect(row.completed && row.started).toBe(true);
      if (row.status === 'in-progress') {
        expect(row.started).toBe(true);
        expect(row.completed).toBe(false);
      }
      if (row.status === 'scheduled') expect(row.start && row.end && row.technician_id).toBeTruthy();
      if (row.start !== null && row.end !== null) {
        expect(row.start < row.end).toBe(true);
        expect(row.start >= '08:00:00' && row.end <= '17:00:00').toBe(true);
      }
    }
    // Past visits are mostly done; the future is booked but not worked yet; today has jobs in progress.
    const past = rows.filter((row) => row.service_date < businessToday);
    const future = rows.filter((row) => row.service_date > businessToday);
    expect(past.filter((row) => row.status === 'completed').length).toBeGreaterThan(past.length / 2);
    expect(future.every((row) => ['pending', 'scheduled', 'cancelled'].includes(row.status))).toBe(true);
    expect(rows.some((row) => row.status === 'in-progress' && row.service_date === businessToday)).toBe(true);
  });

  it('gives each technician a day in the technician app: 3 to 5 visits scheduled today, each with its open checklist', async () => {
    const rows = await database.query<{ name: string; visits: number; with_tasks: number; open_tasks: number }>(
      `select t.name,
              count(w.id)::int as visits,
              count(w.id) filter (where exists (select 1 from work_order_tasks k where k.work_order_id = w.id))::int as with_tasks,
              (select count(*)::int from work_order_tasks k join work_orders x on x.id = k.work_order_id
                where x.technician_id = t.id and x.service_date = $1 and x.status = 'scheduled' and k.status = 'pending') as open_tasks
         from technicians t
         left join work_orders w on w.technician_id = t.id and w.service_date = $1 and w.status = 'scheduled'
        group by t.id, t.name order by t.name`,
      [businessToday],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.visits, row.name).toBeGreaterThanOrEqual(3);
      expect(row.visits, row.name).toBeLessThanOrEqual(6);
      expect(row.with_tasks, row.name).toBeGreaterThanOrEqual(3);
      expect(row.open_tasks, row.name).toBeGreaterThanOrEqual(6);
    }
  });

  it('covers every lead status and source, urgent exactly for AC and heating repairs', async () => {
    const rows = await database.query<{ status: string; source: string; service_type: string; priority: string; today: boolean; recent: boolean }>(
      `select status, source, service_type, priority,
              (created_at at time zone 'America/New_York')::date = $2::date as today,
              created_at > $1::timestamptz - interval '30 days' and created_at <= $1 as recent
         from estimate_requests`,
      [now.toISOString(), businessToday],
    );
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(leadStatuses));
    expect(new Set(rows.map((row) => row.source))).toEqual(new Set(leadSources));
    for (const row of rows) {
      const urgent = row.service_type === 'ac-repair' || row.service_type === 'heating-repair';
      expect(row.priority, row.service_type).toBe(urgent ? 'urgent' : 'normal');
      expect(row.recent).toBe(true);
    }
    expect(rows.filter((row) => row.today).length).toBeGreaterThanOrEqual(2);
  });

  it('links converted leads to real work orders of the same customer', async () => {
    const rows = await database.query<{ same_customer: boolean }>(
      `select w.customer_id = e.customer_id as same_customer
         from estimate_requests e join work_orders w on w.id = e.work_order_id
        where e.workflow_stage = 'converted_to_work_order'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.same_customer)).toBe(true);
  });

  it('answers every lead after it arrived (the average response time is never negative)', async () => {
    const rows = await database.query<{ answered: number; before_arrival: number }>(
      `select count(*)::int as answered, count(*) filter (where responded_at < created_at)::int as before_arrival
         from estimate_requests where responded_at is not null`,
    );
    expect(rows[0]!.answered).toBeGreaterThan(0);
    expect(rows[0]!.before_arrival).toBe(0);
  });

  it('has chat conversations from today and chat leads pointing at them', async () => {
    const [chat] = await database.query<{ today: number; orphan_leads: number; notifications: number }>(
      `select (select count(*)::int from ai_conversations
                where (created_at at time zone 'America/New_York')::date = $1::date) as today,
              (select count(*)::int from ai_leads l
                where not exists (select 1 from ai_conversations c where c.conversation_id = l.conversation_id)) as orphan_leads,
              (select count(*)::int from admin_notifications where type = 'new_ai_lead') as notifications`,
      [businessToday],
    );
    expect(chat!.today).toBeGreaterThanOrEqual(2);
    expect(chat!.orphan_leads).toBe(0);
    expect(chat!.notifications).toBeGreaterThan(0);
  });

  it('adds to a database that already has data and reuses its technicians; queues no message for its work orders, and keeps what was queued', async () => {
    expect((await database.query<{ count: number }>('select count(*)::int as count from message_triggers'))[0]!.count).toBe(0);
    // A work order changed by staff is waiting for the messaging planner.
    await database.query(`update work_orders set status = 'cancelled' where id = (select id from work_orders where status = 'scheduled' order by id limit 1)`);
    const again = await seedDemoData(database.db, { customers: 5, workOrders: 10, now });
    expect(again).toMatchObject({ customers: 5, workOrders: 10, technicians: 0 });
    const [counts] = await database.query<{ customers: number; technicians: number }>(
      'select (select count(*)::int from customers) as customers, (select count(*)::int from technicians) as technicians',
    );
    expect(counts).toEqual({ customers: 45, technicians: 3 });
    expect((await database.query<{ count: number }>('select count(*)::int as count from message_triggers'))[0]!.count).toBe(1);
  });
});
