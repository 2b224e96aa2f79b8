import { sql, type SQL } from 'drizzle-orm';
import { activeWorkOrderStatuses } from '#shared/enums.ts';
import { mapPriorityRanks, type MapPriority, type MapWorkOrderFilters } from '#shared/map.ts';
import type { Database } from '#server/db/client.ts';

/**
 * The service map's reads (spec 001 sections 2, 3 and 7; decision 016-c). Each view's markers come
 * from one statement: grouping, counting and ranking happen in SQL, and each item is `row_to_json`
 * of a row whose column names are the contract's keys (compact: no spaces), one row per item, every
 * row carrying the header's figures (one row with a null item when nothing matches). The items are
 * rows, not one JSON text joined in SQL (decision 024-b): joining 20,000 items into one text of
 * megabytes made the embedded database's memory grow by about 35 MB for good (WebAssembly memory
 * never shrinks); rows of a few hundred bytes reuse what it has.
 */

/** A view's markers: each item's JSON text, and the view's filter-independent header figures. */
export type MarkerRows = { items: string[]; total: number; withActiveWorkOrders: number };

/** The company calendar days a date range covers: service_date in [from, until). */
export type MapDateWindow = { from: string; until: string } | undefined;

const activeStatuses = sql.raw(activeWorkOrderStatuses.map((status) => `'${status}'`).join(', '));

/** 'emergency' -> 5 ... 'low' -> 1 (the map's ranks, spec 001 section 9), null for anything else. */
const priorityRank = (column: SQL) =>
  sql`(case ${column} ${sql.raw(
    Object.entries(mapPriorityRanks)
      .map(([priority, rank]) => `when '${priority}' then ${rank}`)
      .join(' '),
  )} end)`;

/** Rank back to the priority: an array indexed by rank. */
const prioritiesByRank = sql.raw(
  `array[${Object.entries(mapPriorityRanks)
    .sort(([, a], [, b]) => a - b)
    .map(([priority]) => `'${priority}'`)
    .join(', ')}]::text[]`,
);

/** Coordinates to 6 decimals (about 10 cm): shorter JSON, the same pin (float arithmetic: cheaper than numeric). */
const coordinate = (column: SQL) => sql`round(${column} * 1000000) / 1000000`;

const geocoded = (alias: string) => sql.raw(`${alias}.latitude is not null and ${alias}.longitude is not null`);

/**
 * The work orders a Work Orders View filter set selects (alias w). Status: a specific status
 * selects that status alone (Active Only does not narrow it further); 'all' with Active Only is the
 * active statuses; 'all' without it is every work order. Service type 'emergency' means emergency
 * priority. Dates are service dates in the company's time zone.
 */
export function workOrderConditions(filters: MapWorkOrderFilters, window: MapDateWindow): SQL {
  const conditions: SQL[] = [];
  if (filters.status !== 'all') conditions.push(sql`w.status = ${filters.status}`);
  else if (filters.activeOnly) conditions.push(sql`w.status in (${activeStatuses})`);
  if (filters.priority !== 'all') conditions.push(sql`w.priority = ${filters.priority}`);
  if (filters.serviceType === 'emergency') conditions.push(sql`w.priority = 'emergency'`);
  else if (filters.serviceType !== 'all') conditions.push(sql`w.service_type = ${filters.serviceType}`);
  if (window) conditions.push(sql`w.service_date >= ${window.from}::date and w.service_date < ${window.until}::date`);
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
}

/** A maintenance plan member (issue 22): the customer has an active agreement (maintenance_agreements_customer_idx). */
const isMember = (customerId: SQL) => sql`exists (select 1 from maintenance_agreements a where a.customer_id = ${customerId} and a.status = 'active')`;

/**
 * The Work Orders View's markers (MapPropertiesResponse's items and header, as MarkerRows
 * reads them), in one statement, the items in address order:
 * - per property (geocoded customers grouped by address, city, state) the matching work orders'
 *   counts and highest priority; properties with none are left out;
 * - the property's id, coordinates and zip from its first customer (oldest), its customer count,
 *   and 'commercial' if any customer there is commercial (one pass over the geocoded customers,
 *   decision 020-h);
 * - the header: geocoded properties with any active work order, and all geocoded properties
 *   (both independent of the filters).
 */
export function propertiesQuery(filters: MapWorkOrderFilters, window: MapDateWindow, today: string): SQL {
  return sql`with matching as (
  select c.address, c.city, c.state,
    count(*) filter (where w.status in (${activeStatuses}))::int as active,
    count(*) filter (where w.status = 'pending')::int as pending,
    count(*) filter (where w.status = 'scheduled')::int as scheduled,
    count(*) filter (where w.status = 'in-progress')::int as in_progress,
    count(*) filter (where w.status = 'completed')::int as completed,
    max(${priorityRank(sql`w.priority`)}) as rank
  from work_orders w join customers c on c.id = w.customer_id
  where ${geocoded('c')} and ${workOrderConditions(filters, window)}
  group by c.address, c.city, c.state
),
places as (
  -- Every geocoded property in one pass over the customers: its first customer (oldest), its
  -- customer count, whether any is commercial, and whether any has an active work order (the kept
  -- per-customer counts, not the work orders).
  select distinct on (c.address, c.city, c.state) c.address, c.city, c.state, c.id, c.zip, c.latitude, c.longitude,
    (count(*) over property)::int as customer_count,
    bool_or(c.type = 'commercial') over property as commercial,
    bool_or(coalesce(k.active, 0) > 0) over property as busy,
    bool_or(${isMember(sql`c.id`)}) over property as member
  from customers c
  left join customer_work_order_counts k on k.customer_id = c.id
  where ${geocoded('c')}
  window property as (partition by c.address, c.city, c.state)
  order by c.address, c.city, c.state, c.created_at, c.id
),
listed as (
  select f.id, m.address, m.city, m.state, f.zip,
    case when f.commercial then 'commercial' else 'residential' end as "propertyType",
    ${coordinate(sql`f.latitude`)} as latitude, ${coordinate(sql`f.longitude`)} as longitude,
    f.customer_count as "customerCount", m.active as "activeWorkOrders",
    m.pending as "pendingCount", m.scheduled as "scheduledCount", m.in_progress as "inProgressCount", m.completed as "completedCount",
    (${prioritiesByRank})[m.rank] as "highestPriority", f.member as "isMember"
  from matching m
  join places f on f.address = m.address and f.city = m.city and f.state = m.state
),
field as (
  -- Today's latest field step per property (issue 19): a few rows, read by the day's schedule index.
  select distinct on (c.address, c.city, c.state) c.address, c.city, c.state,
    json_build_object('step', s.step, 'at', s.at)::text as step
  from work_orders w
  join customers c on c.id = w.customer_id
  cross join lateral (select case
      when w.status = 'completed' then 'done'
      when w.status = 'in-progress' then 'on-site'
      else 'en-route' end as step,
    case when w.status = 'completed' then w.completed_at when w.status = 'in-progress' then w.started_at else w.en_route_at end as at) s
  where w.service_date = ${today}::date and ${geocoded('c')}
    and (w.status in ('in-progress', 'completed') or (w.status = 'scheduled' and w.en_route_at is not null))
  order by c.address, c.city, c.state, s.at desc nulls last
),
header as (
  select (count(*) filter (where busy))::int as "withActiveWorkOrders", count(*)::int as total from places
)
select h.total, h."withActiveWorkOrders", i.item from header h left join (
  select case when s.step is null then row_to_json(l)::text else left(row_to_json(l)::text, -1) || ',"fieldStep":' || s.step || '}' end as item,
    row_number() over (order by l.address, l.city, l.state) as position
  from listed l left join field s on s.address = l.address and s.city = l.city and s.state = l.state
) i on true
order by i.position`;
}

export type MapCustomerQuery = { type: 'all' | 'residential' | 'commercial'; hasActiveWorkOrders: boolean };

/**
 * The Customers View's markers (MapCustomersResponse's items and header), in one statement: every geocoded
 * customer the filters keep, with total and active work-order counts (kept per customer by
 * triggers: customer_work_order_counts, decision 020-h); the header counts all geocoded customers
 * and those with active work orders (independent of the filters).
 */
export function customersQuery(filters: MapCustomerQuery): SQL {
  const conditions: SQL[] = [];
  if (filters.type !== 'all') conditions.push(sql`e.type = ${filters.type}`);
  if (filters.hasActiveWorkOrders) conditions.push(sql`e."activeWorkOrders" > 0`);
  const kept = conditions.length === 0 ? sql`` : sql` where ${sql.join(conditions, sql` and `)}`;
  return sql`with everyone as (
  select c.id, c.name, c.type, ${coordinate(sql`c.latitude`)} as latitude, ${coordinate(sql`c.longitude`)} as longitude,
    coalesce(w.total, 0) as "totalWorkOrders", coalesce(w.active, 0) as "activeWorkOrders", ${isMember(sql`c.id`)} as "isMember"
  from customers c
  left join customer_work_order_counts w on w.customer_id = c.id
  where ${geocoded('c')}
),
header as (
  select count(*)::int as total, (count(*) filter (where "activeWorkOrders" > 0))::int as "withActiveWorkOrders" from everyone
)
select h.total, h."withActiveWorkOrders", i.item from header h left join (select row_to_json(e)::text as item from everyone e${kept}) i on true`;
}

export type PropertyCustomerRow = {
  id: string;
  name: string;
  phone: string;
  /** An active maintenance plan (issue 22). */
  isMember: boolean;
  email: string | null;
  type: string;
  zip: string | null;
  latitude: number;
  longitude: number;
};

export type WorkOrderCountsRow = {
  active: number;
  pending: number;
  scheduled: number;
  in_progress: number;
  completed: number;
  highest_priority: MapPriority | null;
};

export type WorkOrderSummaryRow = {
  id: string;
  work_order_number: string | null;
  title: string;
  service_type: string;
  status: string;
  priority: string;
  en_route_at: Date | string | null;
  started_at: Date | string | null;
  completed_at: Date | string | null;
};

export type CustomerDetailsRow = PropertyCustomerRow & {
  address: string;
  city: string;
  state: string;
  total: number;
  active: number;
};

/** Counts per status and the highest priority of the active work orders, for some customers. */
const countsOf = (customerIds: SQL) => sql`select
  (count(*) filter (where w.status in (${activeStatuses})))::int as active,
  (count(*) filter (where w.status = 'pending'))::int as pending,
  (count(*) filter (where w.status = 'scheduled'))::int as scheduled,
  (count(*) filter (where w.status = 'in-progress'))::int as in_progress,
  (count(*) filter (where w.status = 'completed'))::int as completed,
  (${prioritiesByRank})[max(${priorityRank(sql`w.priority`)}) filter (where w.status in (${activeStatuses}))] as highest_priority
from work_orders w where w.customer_id in (${customerIds})`;

export function createMapRepository(db: Database) {
  async function rows<Row extends Record<string, unknown>>(query: SQL): Promise<Row[]> {
    return (await db.execute<Row>(query)).rows;
  }
  async function markers(query: SQL): Promise<MarkerRows> {
    const found = await rows<{ total: number; withActiveWorkOrders: number; item: string | null }>(query);
    const items: string[] = [];
    for (const row of found) if (row.item !== null) items.push(row.item);
    return { items, total: Number(found[0]!.total), withActiveWorkOrders: Number(found[0]!.withActiveWorkOrders) };
  }

  return {
    properties: (filters: MapWorkOrderFilters, window: MapDateWindow, today: string) => markers(propertiesQuery(filters, window, today)),

    customers: (filters: MapCustomerQuery) => markers(customersQuery(filters)),

    /** The geocoded customers at an address, oldest first (the first one is the property's id and pin). */
    customersAt: (place: { address: string; city: string; state: string }) =>
      rows<PropertyCustomerRow>(sql`select c.id, c.name, c.phone, c.email, c.type, c.zip, c.latitude, c.longitude,
  ${isMember(sql`c.id`)} as "isMember"
from customers c
where c.address = ${place.address} and c.city = ${place.city} and c.state = ${place.state} and ${geocoded('c')}
order by c.created_at, c.id`),

    workOrderCounts: async (customerIds: string[]) =>
      (await rows<WorkOrderCountsRow>(countsOf(sql.join(customerIds.map((id) => sql`${id}::uuid`), sql`, `))))[0]!,

    /** Active work orders of some customers, newest first. */
    activeWorkOrders: (customerIds: string[], limit: number) =>
      rows<WorkOrderSummaryRow>(sql`select w.id, w.work_order_number, w.title, w.service_type, w.status, w.priority, w.en_route_at, w.started_at, w.completed_at
from work_orders w
where w.customer_id in (${sql.join(customerIds.map((id) => sql`${id}::uuid`), sql`, `)}) and w.status in (${activeStatuses})
order by w.created_at desc, w.id desc
limit ${limit}`),

    /** Work orders of some customers completed on today's visits (service date today), the latest done first. */
    doneToday: (customerIds: string[], today: string, limit: number) =>
      rows<WorkOrderSummaryRow>(sql`select w.id, w.work_order_number, w.title, w.service_type, w.status, w.priority, w.en_route_at, w.started_at, w.completed_at
from work_orders w
where w.customer_id in (${sql.join(customerIds.map((id) => sql`${id}::uuid`), sql`, `)}) and w.status = 'completed' and w.service_date = ${today}::date
order by w.completed_at desc nulls last, w.id desc
limit ${limit}`),

    /** One geocoded customer with work-order counts, or nothing. */
    customer: async (id: string) =>
      (
        await rows<CustomerDetailsRow>(sql`select c.id, c.name, c.phone, c.email, c.type, c.address, c.city, c.state, c.zip, c.latitude, c.longitude,
  ${isMember(sql`c.id`)} as "isMember",
  (select count(*)::int from work_orders w where w.customer_id = c.id) as total,
  (select count(*)::int from work_orders w where w.customer_id = c.id and w.status in (${activeStatuses})) as active
from customers c
where c.id = ${id}::uuid and ${geocoded('c')}`)
      )[0],
  };
}

export type MapRepository = ReturnType<typeof createMapRepository>;
