import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import {
  customers,
  equipment,
  maintenanceAgreementBills,
  maintenanceAgreementEquipment,
  maintenanceAgreements,
  maintenanceAgreementTerms,
  maintenanceVisits,
  workOrders,
  workOrderTasks,
} from '#server/db/schema/index.ts';
import { jsonRows } from '#server/db/json-rows.ts';

export type AgreementRow = typeof maintenanceAgreements.$inferSelect;
export type AgreementTermRow = typeof maintenanceAgreementTerms.$inferSelect;
export type NewAgreement = typeof maintenanceAgreements.$inferInsert;

export type VisitJoinRow = {
  id: string;
  agreementId: string;
  period: string;
  season: string;
  dueFrom: string;
  dueBy: string;
  workOrderId: string | null;
  workOrderNumber: string | null;
  title: string | null;
  status: string | null;
  scheduledDay: string | null;
};

export type VisitDueRow = VisitJoinRow & {
  agreementNumber: string;
  planId: string;
  customerId: string;
  customerName: string;
  customerPhone: string;
  address: string;
  city: string;
  zip: string | null;
};

/** An active agreement as the generator reads it. */
export type GenerationRow = {
  id: string;
  agreementNumber: string;
  customerId: string;
  planId: string;
  termNumber: number;
  startsOn: string;
  endsOn: string;
  equipmentId: string | null;
};

export type NewVisitWorkOrder = typeof workOrders.$inferInsert & { idempotencyKey: string };

const dayOf = (timeZone: string) => sql<string | null>`to_char(${workOrders.scheduledDate} at time zone ${timeZone}, 'YYYY-MM-DD')`;

/** Inserts run in chunks under PostgreSQL's 65,535 parameters a statement. */
async function rowsOf<Row>(db: DbExecutor, query: ReturnType<typeof sql>): Promise<Row[]> {
  return (await jsonRows<Row>(db, query)).rows;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += size) result.push(items.slice(index, index + size));
  return result;
}

export function createAgreementRepository(db: DbExecutor) {
  return {
    async insert(values: NewAgreement): Promise<AgreementRow> {
      return (await db.insert(maintenanceAgreements).values(values).returning())[0]!;
    },

    async insertTerm(values: typeof maintenanceAgreementTerms.$inferInsert): Promise<void> {
      await db.insert(maintenanceAgreementTerms).values(values).onConflictDoNothing();
    },

    async update(id: string, values: Partial<NewAgreement>): Promise<AgreementRow> {
      return (await db.update(maintenanceAgreements).set({ ...values, updatedAt: sql`now()` }).where(eq(maintenanceAgreements.id, id)).returning())[0]!;
    },

    async lockById(id: string): Promise<AgreementRow | undefined> {
      return (await db.select().from(maintenanceAgreements).where(eq(maintenanceAgreements.id, id)).for('update'))[0];
    },

    async byId(id: string): Promise<AgreementRow | undefined> {
      return (await db.select().from(maintenanceAgreements).where(eq(maintenanceAgreements.id, id)))[0];
    },

    async byCustomer(customerId: string): Promise<AgreementRow[]> {
      return db
        .select()
        .from(maintenanceAgreements)
        .where(eq(maintenanceAgreements.customerId, customerId))
        .orderBy(sql`${maintenanceAgreements.createdAt} desc`, asc(maintenanceAgreements.id));
    },

    async customer(customerId: string): Promise<{ id: string; name: string; email: string | null } | undefined> {
      return (await db.select({ id: customers.id, name: customers.name, email: customers.email }).from(customers).where(eq(customers.id, customerId)))[0];
    },

    async customerNames(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: customers.id, name: customers.name }).from(customers).where(inArray(customers.id, ids));
      return new Map(rows.map((row) => [row.id, row.name]));
    },

    /** Which of `ids` are this customer's equipment records. */
    async ownedEquipment(customerId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: equipment.id })
        .from(equipment)
        .where(and(eq(equipment.customerId, customerId), inArray(equipment.id, ids)));
      return rows.map((row) => row.id);
    },

    async setEquipment(agreementId: string, ids: string[]): Promise<void> {
      await db.delete(maintenanceAgreementEquipment).where(eq(maintenanceAgreementEquipment.agreementId, agreementId));
      if (ids.length > 0) await db.insert(maintenanceAgreementEquipment).values(ids.map((equipmentId) => ({ agreementId, equipmentId })));
    },

    async equipmentOf(agreementIds: string[]): Promise<Map<string, string[]>> {
      const result = new Map<string, string[]>();
      if (agreementIds.length === 0) return result;
      const rows = await db
        .select()
        .from(maintenanceAgreementEquipment)
        .where(inArray(maintenanceAgreementEquipment.agreementId, agreementIds))
        .orderBy(asc(maintenanceAgreementEquipment.equipmentId));
      for (const row of rows) result.set(row.agreementId, [...(result.get(row.agreementId) ?? []), row.equipmentId]);
      return result;
    },

    async termsOf(agreementIds: string[]): Promise<AgreementTermRow[]> {
      if (agreementIds.length === 0) return [];
      return db
        .select()
        .from(maintenanceAgreementTerms)
        .where(inArray(maintenanceAgreementTerms.agreementId, agreementIds))
        .orderBy(asc(maintenanceAgreementTerms.agreementId), asc(maintenanceAgreementTerms.termNumber));
    },

    async visitsOf(agreementIds: string[], timeZone: string): Promise<VisitJoinRow[]> {
      if (agreementIds.length === 0) return [];
      return db
        .select({
          id: maintenanceVisits.id,
          agreementId: maintenanceVisits.agreementId,
          period: maintenanceVisits.period,
          season: maintenanceVisits.season,
          dueFrom: maintenanceVisits.dueFrom,
          dueBy: maintenanceVisits.dueBy,
          workOrderId: maintenanceVisits.workOrderId,
          workOrderNumber: workOrders.workOrderNumber,
          title: workOrders.title,
          status: workOrders.status,
          scheduledDay: dayOf(timeZone),
        })
        .from(maintenanceVisits)
        .leftJoin(workOrders, eq(workOrders.id, maintenanceVisits.workOrderId))
        .where(inArray(maintenanceVisits.agreementId, agreementIds))
        .orderBy(asc(maintenanceVisits.dueFrom), asc(maintenanceVisits.period));
    },

    /** The open work orders (pending or scheduled) of an agreement's visits, from `fromDate` on, optionally only some seasons. */
    async openVisitWorkOrders(agreementId: string, options: { seasons?: string[] } = {}): Promise<{ id: string; workOrderNumber: string; status: string }[]> {
      return db
        .select({ id: workOrders.id, workOrderNumber: workOrders.workOrderNumber, status: workOrders.status })
        .from(maintenanceVisits)
        .innerJoin(workOrders, eq(workOrders.id, maintenanceVisits.workOrderId))
        .where(
          and(
            eq(maintenanceVisits.agreementId, agreementId),
            inArray(workOrders.status, ['pending', 'scheduled']),
            options.seasons ? inArray(maintenanceVisits.season, options.seasons) : undefined,
          ),
        )
        .for('update', { of: workOrders });
    },

    async cancelWorkOrders(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.update(workOrders).set({ status: 'cancelled', updatedAt: sql`now()` }).where(inArray(workOrders.id, ids));
    },

    /** Active agreements whose current term covers today or starts by `horizon`, with the first covered equipment record. */
    async activeForGeneration(today: string, horizon: string, agreementIds?: string[]): Promise<GenerationRow[]> {
      return rowsOf<GenerationRow>(
        db,
        sql`select a.id as "id", a.agreement_number as "agreementNumber", a.customer_id as "customerId", a.plan_id as "planId",
                   a.current_term_number as "termNumber", a.current_term_starts_on as "startsOn", a.current_term_ends_on as "endsOn",
                   (select e.equipment_id from maintenance_agreement_equipment e where e.agreement_id = a.id order by e.equipment_id limit 1) as "equipmentId"
            from maintenance_agreements a
            where a.status = 'active' and a.current_term_starts_on <= ${horizon} and a.current_term_ends_on >= ${today}
            ${agreementIds ? sql`and a.id in (${sql.join(agreementIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
            order by a.id`,
      );
    },

    /** The (agreement, period) pairs already taken among `periods`. */
    async takenPeriods(periods: string[], agreementIds?: string[]): Promise<Set<string>> {
      if (periods.length === 0) return new Set();
      const rows = await db
        .select({ agreementId: maintenanceVisits.agreementId, period: maintenanceVisits.period })
        .from(maintenanceVisits)
        .where(and(inArray(maintenanceVisits.period, periods), agreementIds ? inArray(maintenanceVisits.agreementId, agreementIds) : undefined));
      return new Set(rows.map((row) => `${row.agreementId}:${row.period}`));
    },

    /**
     * The visits' work orders, each unique by its idempotency key (`agreement:<id>:<period>`): one a
     * concurrent generator inserted first is skipped. Answers the ones inserted here.
     */
    async insertVisitWorkOrders(values: NewVisitWorkOrder[]): Promise<{ id: string; idempotencyKey: string; workOrderNumber: string }[]> {
      const inserted: { id: string; idempotencyKey: string; workOrderNumber: string }[] = [];
      for (const chunk of chunks(values, 1_000)) {
        const rows = await db
          .insert(workOrders)
          .values(chunk)
          .onConflictDoNothing({ target: workOrders.idempotencyKey })
          .returning({ id: workOrders.id, idempotencyKey: workOrders.idempotencyKey, workOrderNumber: workOrders.workOrderNumber });
        inserted.push(...rows.map((row) => ({ id: row.id, idempotencyKey: row.idempotencyKey!, workOrderNumber: row.workOrderNumber })));
      }
      return inserted;
    },

    async insertTasks(values: (typeof workOrderTasks.$inferInsert)[]): Promise<void> {
      for (const chunk of chunks(values, 5_000)) await db.insert(workOrderTasks).values(chunk);
    },

    async insertVisits(values: (typeof maintenanceVisits.$inferInsert)[]): Promise<void> {
      for (const chunk of chunks(values, 2_000)) await db.insert(maintenanceVisits).values(chunk).onConflictDoNothing();
    },

    /** Active agreements whose current term ended before `today`. */
    /**
     * Active agreements billed monthly whose current term began by `startedBy` (a month 2 can be
     * due), each with the months of its current term already billed.
     */
    async monthlyBilled(startedBy: string): Promise<{ agreement: AgreementRow; billedMonths: number[] }[]> {
      return db
        .select({
          agreement: maintenanceAgreements,
          billedMonths: sql<number[]>`array(select b.month from maintenance_agreement_bills b where b.agreement_id = ${maintenanceAgreements.id} and b.term_number = ${maintenanceAgreements.currentTermNumber})`,
        })
        .from(maintenanceAgreements)
        .where(
          and(
            eq(maintenanceAgreements.status, 'active'),
            eq(maintenanceAgreements.billing, 'monthly'),
            sql`${maintenanceAgreements.currentTermStartsOn} <= ${startedBy}`,
          ),
        )
        .orderBy(asc(maintenanceAgreements.id));
    },

    /** Claims a month's bill: false when it was billed already (by another instance meanwhile, say; the insert waits for it). */
    async claimBill(agreementId: string, termNumber: number, month: number): Promise<boolean> {
      const claimed = await db.insert(maintenanceAgreementBills).values({ agreementId, termNumber, month }).onConflictDoNothing().returning({ month: maintenanceAgreementBills.month });
      return claimed.length > 0;
    },

    async setBillInvoice(agreementId: string, termNumber: number, month: number, invoiceId: string): Promise<void> {
      await db
        .update(maintenanceAgreementBills)
        .set({ invoiceId })
        .where(and(eq(maintenanceAgreementBills.agreementId, agreementId), eq(maintenanceAgreementBills.termNumber, termNumber), eq(maintenanceAgreementBills.month, month)));
    },

    async endedTerms(today: string): Promise<AgreementRow[]> {
      return db
        .select()
        .from(maintenanceAgreements)
        .where(and(eq(maintenanceAgreements.status, 'active'), sql`${maintenanceAgreements.currentTermEndsOn} < ${today}`))
        .orderBy(asc(maintenanceAgreements.currentTermEndsOn))
        .limit(500)
        .for('update', { skipLocked: true });
    },

    /**
     * Claims the renewal reminders due (terms ending within `untilDate`, not yet reminded): marks
     * them reminded and answers them, in the caller's transaction, so each is sent once.
     */
    async claimRenewalReminders(untilDate: string, today: string, at: Date): Promise<{ agreementId: string; termNumber: number; endsOn: string }[]> {
      const result = await db.execute<{ agreementId: string; termNumber: number; endsOn: string }>(
        sql`update maintenance_agreement_terms t set renewal_reminded_at = ${at.toISOString()}::timestamptz
            from maintenance_agreements a
            where a.id = t.agreement_id and a.current_term_number = t.term_number and a.status = 'active'
              and t.renewal_reminded_at is null and t.ends_on <= ${untilDate} and t.ends_on >= ${today}
            returning t.agreement_id as "agreementId", t.term_number as "termNumber", to_char(t.ends_on, 'YYYY-MM-DD') as "endsOn"`,
      );
      return result.rows;
    },

    async visitsDue(filter: { monthStart: string; monthEnd: string; zips?: readonly string[]; planId?: string; unscheduledOnly: boolean; limit: number; offset: number; timeZone: string }): Promise<{ rows: VisitDueRow[]; total: number }> {
      const where = sql`v.due_from <= ${filter.monthEnd} and v.due_by >= ${filter.monthStart}
        ${filter.unscheduledOnly ? sql`and w.status = 'pending' and w.scheduled_date is null` : sql`and w.status <> 'cancelled'`}
        ${filter.planId ? sql`and a.plan_id = ${filter.planId}` : sql``}
        ${filter.zips ? sql`and coalesce(w.service_zip, c.zip) in (${sql.join(filter.zips.map((zip) => sql`${zip}`), sql`, `)})` : sql``}`;
      const from = sql`from maintenance_visits v
        join work_orders w on w.id = v.work_order_id
        join maintenance_agreements a on a.id = v.agreement_id
        join customers c on c.id = a.customer_id`;
      const rows = await rowsOf<VisitDueRow>(
        db,
        sql`select v.id as "id", v.agreement_id as "agreementId", v.period as "period", v.season as "season", v.due_from as "dueFrom", v.due_by as "dueBy",
                   w.id as "workOrderId", w.work_order_number as "workOrderNumber", w.title as "title", w.status as "status",
                   to_char(w.scheduled_date at time zone ${filter.timeZone}, 'YYYY-MM-DD') as "scheduledDay",
                   a.agreement_number as "agreementNumber", a.plan_id as "planId", c.id as "customerId", c.name as "customerName", c.phone as "customerPhone",
                   coalesce(w.service_address, c.address) as "address", coalesce(w.service_city, c.city) as "city", coalesce(w.service_zip, c.zip) as "zip"
            ${from} where ${where}
            order by v.due_by, c.name, v.id limit ${filter.limit} offset ${filter.offset}`,
      );
      const [count] = await rowsOf<{ total: number }>(db, sql`select count(*)::int as "total" ${from} where ${where}`);
      return { rows, total: count?.total ?? 0 };
    },

    async summary(today: string, monthStart: string, monthEnd: string, renewalsUntil: string): Promise<{ active: number; visitsDue: number; renewals: number; monthlyCents: number }> {
      const [row] = await rowsOf<{ active: number; visitsDue: number; renewals: number; monthlyCents: number }>(
        db,
        sql`select
              (select count(*)::int from maintenance_agreements where status = 'active') as "active",
              (select count(*)::int from maintenance_visits v join work_orders w on w.id = v.work_order_id
                 where v.due_from <= ${monthEnd} and v.due_by >= ${monthStart} and w.status = 'pending' and w.scheduled_date is null) as "visitsDue",
              (select count(*)::int from maintenance_agreements where status = 'active' and current_term_ends_on between ${today} and ${renewalsUntil}) as "renewals",
              (select coalesce(sum(round(price_cents::numeric / term_months)), 0)::int from maintenance_agreements where status = 'active') as "monthlyCents"`,
      );
      return row!;
    },
  };
}

export type AgreementRepository = ReturnType<typeof createAgreementRepository>;

/**
 * The customer's active agreement whose current term covers `date`, for other modules (the member
 * discount on invoices): the newest one when several.
 */
export async function activeAgreementOn(db: DbExecutor, customerId: string, date: string): Promise<{ agreementNumber: string; planId: string } | undefined> {
  const [row] = await db
    .select({ agreementNumber: maintenanceAgreements.agreementNumber, planId: maintenanceAgreements.planId })
    .from(maintenanceAgreements)
    .where(
      and(
        eq(maintenanceAgreements.customerId, customerId),
        eq(maintenanceAgreements.status, 'active'),
        sql`${maintenanceAgreements.currentTermStartsOn} <= ${date}`,
        sql`${maintenanceAgreements.currentTermEndsOn} >= ${date}`,
      ),
    )
    .orderBy(sql`${maintenanceAgreements.createdAt} desc`)
    .limit(1);
  return row;
}
