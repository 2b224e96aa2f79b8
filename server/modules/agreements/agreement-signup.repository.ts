import { asc, count, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { DbExecutor } from '#server/db/client.ts';
import { customers, invoices, maintenanceAgreements, maintenanceAgreementSignups } from '#server/db/schema/index.ts';

export type AgreementSignupRow = typeof maintenanceAgreementSignups.$inferSelect;
export type AgreementSignupListRow = AgreementSignupRow & { agreementNumber: string | null; customerName: string | null; invoiceNumber: string | null };
type PaymentValues = Partial<
  Pick<typeof maintenanceAgreementSignups.$inferInsert, 'paymentStatus' | 'checkoutSessionId' | 'checkoutAmountCents' | 'paymentIntentId' | 'paidCents' | 'paidAt' | 'refundId' | 'refundedAt' | 'invoiceId'>
>;

/** The plan sign-ups from the site (issue 22, decision 027-b). */
export function createAgreementSignupRepository(db: DbExecutor) {
  return {
    /** Inserts, unless a sign-up with the same idempotency key exists: then undefined. */
    async insertOnce(values: typeof maintenanceAgreementSignups.$inferInsert): Promise<AgreementSignupRow | undefined> {
      return (await db.insert(maintenanceAgreementSignups).values(values).onConflictDoNothing({ target: maintenanceAgreementSignups.idempotencyKey }).returning())[0];
    },

    async byIdempotencyKey(key: string): Promise<AgreementSignupRow | undefined> {
      return (await db.select().from(maintenanceAgreementSignups).where(eq(maintenanceAgreementSignups.idempotencyKey, key)).limit(1))[0];
    },

    async setLead(id: string, leadId: string): Promise<void> {
      await db.update(maintenanceAgreementSignups).set({ leadId }).where(eq(maintenanceAgreementSignups.id, id));
    },

    /** The sign-up, locked until the transaction ends: a second decision waits here, then sees the first. */
    async lockById(id: string): Promise<AgreementSignupRow | undefined> {
      return (await db.select().from(maintenanceAgreementSignups).where(eq(maintenanceAgreementSignups.id, id)).for('update'))[0];
    },

    /** A sign-up's online payment as it moves (decision 027-c). */
    async setPayment(id: string, values: PaymentValues): Promise<AgreementSignupRow> {
      return (await db.update(maintenanceAgreementSignups).set({ ...values, updatedAt: sql`now()` }).where(eq(maintenanceAgreementSignups.id, id)).returning())[0]!;
    },

    /** The sign-up a Stripe fact is about: by its Checkout Session, its payment intent or its id, locked until the transaction ends. */
    async lockBy(column: 'checkoutSessionId' | 'paymentIntentId' | 'id', value: string): Promise<AgreementSignupRow | undefined> {
      return (await db.select().from(maintenanceAgreementSignups).where(eq(maintenanceAgreementSignups[column], value)).for('update'))[0];
    },

    async bySession(sessionId: string): Promise<AgreementSignupRow | undefined> {
      return (await db.select().from(maintenanceAgreementSignups).where(eq(maintenanceAgreementSignups.checkoutSessionId, sessionId)).limit(1))[0];
    },

    async decide(id: string, values: Pick<typeof maintenanceAgreementSignups.$inferInsert, 'status' | 'declineReason' | 'agreementId' | 'customerId'>): Promise<AgreementSignupRow> {
      return (
        await db
          .update(maintenanceAgreementSignups)
          .set({ ...values, decidedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(maintenanceAgreementSignups.id, id))
          .returning()
      )[0]!;
    },

    /** A page of one status, with the agreement and customer it became: waiting ones oldest first, decided ones newest first. */
    async list(status: string, limit: number, offset: number): Promise<AgreementSignupListRow[]> {
      const order = status === 'pending' ? [asc(maintenanceAgreementSignups.createdAt), asc(maintenanceAgreementSignups.id)] : [desc(maintenanceAgreementSignups.decidedAt), desc(maintenanceAgreementSignups.id)];
      return this.withNames(eq(maintenanceAgreementSignups.status, status))
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
    },

    async byId(id: string): Promise<AgreementSignupListRow | undefined> {
      return (await this.withNames(eq(maintenanceAgreementSignups.id, id)).limit(1))[0];
    },

    withNames(condition: SQL) {
      return db
        .select({ ...getTableColumns(maintenanceAgreementSignups), agreementNumber: maintenanceAgreements.agreementNumber, customerName: customers.name, invoiceNumber: invoices.invoiceNumber })
        .from(maintenanceAgreementSignups)
        .leftJoin(maintenanceAgreements, eq(maintenanceAgreements.id, maintenanceAgreementSignups.agreementId))
        .leftJoin(customers, eq(customers.id, maintenanceAgreementSignups.customerId))
        .leftJoin(invoices, eq(invoices.id, maintenanceAgreementSignups.invoiceId))
        .where(condition)
        .$dynamic();
    },

    /** How many of a status, and how many are waiting. */
    async counts(status: string): Promise<{ total: number; pending: number }> {
      const rows = await db
        .select({ status: maintenanceAgreementSignups.status, count: count() })
        .from(maintenanceAgreementSignups)
        .groupBy(maintenanceAgreementSignups.status);
      const of = (wanted: string) => Number(rows.find((row) => row.status === wanted)?.count ?? 0);
      return { total: of(status), pending: of('pending') };
    },
  };
}

export type AgreementSignupRepository = ReturnType<typeof createAgreementSignupRepository>;
