import type { z } from 'zod';
import {
  addMonths,
  agreementMessages,
  expiringWithinDays,
  generationLeadDays,
  renewalReminderDays,
  type AgreementDetail,
  type AgreementStatus,
  type AgreementSummary,
  type AgreementBilling,
  type agreementCreateSchema,
  type agreementUpdateSchema,
  type VisitsDueQuery,
  type VisitsDueResponse,
} from '#shared/agreement.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import type { DocumentLineValues } from '#shared/document-line.ts';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import { maintenancePlanById, maintenancePlanVisits, maintenanceSeasons, planPriceCents, type MaintenancePlanId, type MaintenanceSeason } from '#shared/maintenance-plans.ts';
import { formatCents } from '#shared/money.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import { withTransaction, type Database, type DbExecutor, type RepositoryFactory } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { isUuid } from '#server/lib/uuid.ts';
import { diffFields, hasChanges, recordAudit, recordAudits, systemActors, type AuditActor } from '#server/modules/audit/index.ts';
import type { EmailOutbox } from '#server/modules/email/index.ts';
import { isSameVersion } from '#server/modules/work-orders/index.ts';
import { periodsDue, termEnd, type TermPeriod } from './agreement-periods.ts';
import { activeAgreementOn, type AgreementRepository, type AgreementRow, type GenerationRow, type NewVisitWorkOrder } from './agreement.repository.ts';

const notFound = () => new AppError('NOT_FOUND', agreementMessages.notFound);
/** Agreements per transaction when generating or renewing: the embedded database answers other requests between them. */
export const generationBatchSize = 250;
const auditedFields = ['planId', 'status', 'autoRenew', 'billing', 'notes', 'priceCents', 'currentTermEndsOn', 'cancellationReason'] as const;

type Options = {
  db: Database;
  repository: RepositoryFactory<AgreementRepository>;
  timeZone: string;
  company: Pick<CompanyProfile, 'name' | 'phone'>;
  outbox: Pick<EmailOutbox, 'enqueue' | 'kick'>;
  /**
   * Makes a term's draft invoice (a renewal's, or a month's) in the caller's transaction (the
   * invoices module's `createDraftIn`, given by app.ts); without it no invoice is made.
   */
  createRenewalInvoice?: (tx: DbExecutor, draft: { customerId: string; lines: DocumentLineValues[]; notes: string }) => Promise<{ id: string }>;
  /** Days before its season a visit is generated (AGREEMENT_VISIT_LEAD_DAYS). */
  leadDays?: number;
  now?: () => Date;
};

export type GenerationResult = { agreements: number; visits: number };
export type RenewalResult = { renewed: number; expired: number; reminded: number };
export type BillingResult = { billed: number };

const planName = (planId: string) => maintenancePlanById(planId)?.name ?? planId;
const idempotencyKeyOf = (agreementId: string, period: string) => `agreement:${agreementId}:${period}`;

/** What staff see: 'expiring' for an active term ending soon that does not renew by itself. */
export function displayStatus(row: Pick<AgreementRow, 'status' | 'autoRenew' | 'currentTermEndsOn'>, today: string): AgreementStatus {
  if (row.status === 'active' && !row.autoRenew && row.currentTermEndsOn <= addDays(today, expiringWithinDays)) return 'expiring';
  return row.status as AgreementStatus;
}

function monthEnd(month: string): string {
  return addDays(monthStart(`${month}-01`, 1), -1);
}

export function createAgreementService({ db, repository, timeZone, company, outbox, createRenewalInvoice, leadDays = generationLeadDays, now = () => new Date() }: Options) {
  const today = () => todayIn(timeZone, now());

  async function details(executor: DbExecutor, rows: AgreementRow[]): Promise<AgreementDetail[]> {
    const agreements = repository(executor);
    const ids = rows.map((row) => row.id);
    // One after another: `executor` may be a transaction, whose one connection takes one query at a
    // time (node-postgres deprecates queuing them; its next major refuses it).
    const names = await agreements.customerNames([...new Set(rows.map((row) => row.customerId))]);
    const equipment = await agreements.equipmentOf(ids);
    const terms = await agreements.termsOf(ids);
    const visits = await agreements.visitsOf(ids, timeZone);
    const day = today();
    return rows.map((row) => ({
      id: row.id,
      agreementNumber: row.agreementNumber,
      customerId: row.customerId,
      customerName: names.get(row.customerId) ?? '',
      planId: row.planId as MaintenancePlanId,
      planName: planName(row.planId),
      status: displayStatus(row, day),
      startDate: row.startDate,
      termMonths: row.termMonths,
      currentTermStartsOn: row.currentTermStartsOn,
      currentTermEndsOn: row.currentTermEndsOn,
      priceCents: row.priceCents,
      billing: row.billing as AgreementBilling,
      autoRenew: row.autoRenew,
      notes: row.notes,
      equipmentIds: equipment.get(row.id) ?? [],
      cancelledAt: row.cancelledAt?.toISOString() ?? null,
      cancellationReason: row.cancellationReason,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      terms: terms
        .filter((term) => term.agreementId === row.id)
        .map((term) => ({ number: term.termNumber, startsOn: term.startsOn, endsOn: term.endsOn, priceCents: term.priceCents, planId: term.planId as MaintenancePlanId })),
      visits: visits
        .filter((visit) => visit.agreementId === row.id)
        .map((visit) => ({
          id: visit.id,
          period: visit.period,
          season: visit.season as MaintenanceSeason,
          dueFrom: visit.dueFrom,
          dueBy: visit.dueBy,
          workOrderId: visit.workOrderId,
          workOrderNumber: visit.workOrderNumber,
          title: visit.title,
          status: visit.status,
          scheduledDate: visit.scheduledDay,
        })),
    }));
  }

  async function detailIn(executor: DbExecutor, id: string): Promise<AgreementDetail> {
    const row = await repository(executor).byId(id);
    if (!row) throw notFound();
    return (await details(executor, [row]))[0]!;
  }

  async function audit(tx: DbExecutor, actor: AuditActor, before: AgreementRow | undefined, after: AgreementRow, action: string, extra: Record<string, [unknown, unknown]> = {}) {
    const changes = diffFields(before, after, { only: auditedFields });
    await recordAudit(tx, { actor, entityType: 'agreement', entityId: after.id, entityLabel: after.agreementNumber, action, changes: { ...changes, ...extra } });
  }

  async function ownedEquipment(tx: DbExecutor, customerId: string, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const owned = await repository(tx).ownedEquipment(customerId, unique);
    if (owned.length !== unique.length) throw new AppError('VALIDATION_FAILED', agreementMessages.equipmentNotOwned, [{ path: 'equipmentIds', message: agreementMessages.equipmentNotOwned }]);
    return unique;
  }

  /** Cancels the open (pending or scheduled) visits' work orders of an agreement, audited as the actor's. */
  async function cancelOpenVisits(tx: DbExecutor, agreementId: string, actor: AuditActor, seasons?: string[]): Promise<number> {
    const agreements = repository(tx);
    const open = await agreements.openVisitWorkOrders(agreementId, seasons ? { seasons } : {});
    await agreements.cancelWorkOrders(open.map((row) => row.id));
    await recordAudits(
      tx,
      open.map((row) => ({ actor, entityType: 'work_order' as const, entityId: row.id, entityLabel: row.workOrderNumber, action: 'status_changed', changes: { status: [row.status, 'cancelled'] } })),
    );
    return open.length;
  }

  /**
   * Generates the visits due for some agreements, in one transaction: each visit is a pending,
   * unscheduled maintenance work order with the plan's checklist as its tasks, and a row of
   * maintenance_visits unique per agreement and period. A period already taken (by an earlier run,
   * another instance, or a visit whose work order staff deleted) is skipped.
   */
  async function generateIn(tx: DbExecutor, rows: GenerationRow[], day: string): Promise<number> {
    const agreements = repository(tx);
    const due = rows.flatMap((row) => periodsDue(row.planId as MaintenancePlanId, row, day, leadDays).map((period) => ({ row, period })));
    if (due.length === 0) return 0;
    const taken = await agreements.takenPeriods(
      [...new Set(due.map(({ period }) => period.period))],
      rows.map((row) => row.id),
    );
    const missing = due.filter(({ row, period }) => !taken.has(`${row.id}:${period.period}`));
    if (missing.length === 0) return 0;
    const byKey = new Map<string, { row: GenerationRow; period: TermPeriod }>(missing.map((item) => [idempotencyKeyOf(item.row.id, item.period.period), item]));
    const values: NewVisitWorkOrder[] = missing.map(({ row, period }) => ({
      customerId: row.customerId,
      title: `${period.rule.title} (${planName(row.planId)} plan)`,
      description: `Maintenance agreement ${row.agreementNumber}: the ${maintenanceSeasons[period.season].label.toLowerCase()} visit, due ${period.dueFrom} to ${period.dueBy}.`,
      serviceType: 'maintenance',
      serviceDate: period.dueFrom,
      timePreference: 'anytime',
      priority: 'normal',
      status: 'pending',
      equipmentId: row.equipmentId,
      idempotencyKey: idempotencyKeyOf(row.id, period.period),
    }));
    const inserted = await agreements.insertVisitWorkOrders(values);
    const base = now().getTime();
    await agreements.insertTasks(
      inserted.flatMap((workOrder) =>
        byKey.get(workOrder.idempotencyKey)!.period.rule.checklist.map((taskName, index) => ({ workOrderId: workOrder.id, taskName, createdAt: new Date(base + index) })),
      ),
    );
    await agreements.insertVisits(
      inserted.map((workOrder) => {
        const { row, period } = byKey.get(workOrder.idempotencyKey)!;
        return { agreementId: row.id, period: period.period, season: period.season, termNumber: row.termNumber, dueFrom: period.dueFrom, dueBy: period.dueBy, workOrderId: workOrder.id };
      }),
    );
    await recordAudits(
      tx,
      inserted.map((workOrder) => ({
        actor: systemActors.system,
        entityType: 'work_order' as const,
        entityId: workOrder.id,
        entityLabel: workOrder.workOrderNumber,
        action: 'created',
        changes: { agreement: [null, byKey.get(workOrder.idempotencyKey)!.row.agreementNumber] },
      })),
    );
    return inserted.length;
  }

  async function generateFor(tx: DbExecutor, agreementId: string): Promise<void> {
    const day = today();
    await generateIn(tx, await repository(tx).activeForGeneration(day, addDays(day, leadDays), [agreementId]), day);
  }

  /**
   * A term's draft invoice: the year's price, or a month's for monthly billing (decision 027-b: a
   * renewal bills month 1, the hourly run months 2 to 12; the office issues them).
   */
  function termInvoice(row: AgreementRow, month = 1): { customerId: string; lines: DocumentLineValues[]; notes: string } {
    const plan = maintenancePlanById(row.planId)!;
    const isMonthly = row.billing === 'monthly';
    return {
      customerId: row.customerId,
      notes: `Maintenance agreement ${row.agreementNumber}, term ${row.currentTermNumber}: ${row.currentTermStartsOn} to ${row.currentTermEndsOn}.${isMonthly ? ' Billed monthly.' : ''}`,
      lines: [
        {
          priceBookItemId: null,
          kind: 'service',
          code: '',
          name: `${plan.name} maintenance plan${isMonthly ? `, month ${month} of ${row.termMonths}` : ''}`,
          description: `${row.agreementNumber}: ${row.currentTermStartsOn} to ${row.currentTermEndsOn}`,
          quantityMilli: 1000,
          unitPriceCents: isMonthly ? Math.round(row.priceCents / row.termMonths) : row.priceCents,
          discountBps: 0,
          discountCents: 0,
          taxable: false,
          taxRatePpm: 0,
        },
      ],
    };
  }

  function reminderText(row: AgreementRow, customerName: string): { subject: string; text: string } {
    const plan = maintenancePlanById(row.planId)!;
    const firstName = customerName.split(/\s+/)[0] ?? customerName;
    const ends = row.currentTermEndsOn;
    if (row.autoRenew) {
      return {
        subject: `Your ${plan.name} maintenance plan renews on ${ends}`,
        text:
          `Hi ${firstName},\n\nYour ${plan.name} maintenance plan (${row.agreementNumber}) renews by itself on ${addDays(ends, 1)} for ${formatCents(planPriceCents(plan.id))} a year: ` +
          `${plan.visitsPerYear} tune-up visit${plan.visitsPerYear > 1 ? 's' : ''} and ${plan.repairDiscountPercent}% off repairs.\n\n` +
          `Nothing to do. To change or cancel it, call us at ${company.phone}.\n\n${company.name}`,
      };
    }
    return {
      subject: `Your ${plan.name} maintenance plan ends on ${ends}`,
      text:
        `Hi ${firstName},\n\nYour ${plan.name} maintenance plan (${row.agreementNumber}) ends on ${ends}. ` +
        `To keep your tune-ups and ${plan.repairDiscountPercent}% off repairs, call us at ${company.phone} to renew.\n\n${company.name}`,
    };
  }

  return {
    async listForCustomer(customerId: string): Promise<AgreementDetail[]> {
      if (!isUuid(customerId) || !(await repository(db).customer(customerId))) throw new AppError('NOT_FOUND', agreementMessages.customerNotFound);
      return details(db, await repository(db).byCustomer(customerId));
    },

    async detail(id: string): Promise<AgreementDetail> {
      if (!isUuid(id)) throw notFound();
      return detailIn(db, id);
    },

    /** "Add maintenance plan" on a profile: active from its start date, with its first term and the visits already due. */
    async create(customerId: string, input: z.output<typeof agreementCreateSchema>, actor: AuditActor): Promise<AgreementDetail> {
      if (!isUuid(customerId)) throw new AppError('NOT_FOUND', agreementMessages.customerNotFound);
      return withTransaction(db, (tx) => this.createIn(tx, customerId, input, actor));
    },

    /**
     * The same sale inside the caller's transaction: the office's confirmation of a sign-up from the
     * site makes its agreement by this one rule (decision 027-b), with the sign-up's lead.
     */
    async createIn(tx: DbExecutor, customerId: string, input: z.output<typeof agreementCreateSchema>, actor: AuditActor, origin: { leadId?: string | null } = {}): Promise<AgreementDetail> {
      const agreements = repository(tx);
      if (!(await agreements.customer(customerId))) throw new AppError('NOT_FOUND', agreementMessages.customerNotFound);
      const equipmentIds = await ownedEquipment(tx, customerId, input.equipmentIds);
      const endsOn = termEnd(input.startDate, 12);
      // The plan's price (decision 027-b): no one types a price, so none is mistyped.
      const priceCents = planPriceCents(input.planId);
      const row = await agreements.insert({
        customerId,
        planId: input.planId,
        status: 'active',
        startDate: input.startDate,
        termMonths: 12,
        currentTermNumber: 1,
        currentTermStartsOn: input.startDate,
        currentTermEndsOn: endsOn,
        priceCents,
        billing: input.billing,
        autoRenew: input.autoRenew,
        notes: input.notes,
        leadId: origin.leadId ?? null,
        // The service's clock: the day it was recorded decides which months monthly billing leaves to the office (billDue).
        createdAt: now(),
      });
      await agreements.insertTerm({ agreementId: row.id, termNumber: 1, planId: input.planId, startsOn: input.startDate, endsOn, priceCents });
      await agreements.setEquipment(row.id, equipmentIds);
      await audit(tx, actor, undefined, row, 'created', { equipmentIds: [null, equipmentIds] });
      await generateFor(tx, row.id);
      return detailIn(tx, row.id);
    },

    /** The first month's or year's invoice of an agreement's current term, as a draft's values (a paid sign-up's, decision 027-c). */
    async termInvoiceIn(tx: DbExecutor, agreementId: string): Promise<{ customerId: string; lines: DocumentLineValues[]; notes: string }> {
      const row = await repository(tx).lockById(agreementId);
      if (!row) throw notFound();
      return termInvoice(row, 1);
    },

    /** Plan, auto-renew, billing, covered systems, notes. A plan change cancels the open visits of seasons the new plan does not have (decision 027-b). */
    async update(id: string, input: z.output<typeof agreementUpdateSchema>, actor: AuditActor): Promise<AgreementDetail> {
      if (!isUuid(id)) throw notFound();
      return withTransaction(db, async (tx) => {
        const agreements = repository(tx);
        const before = await agreements.lockById(id);
        if (!before) throw notFound();
        if (!isSameVersion(before.updatedAt, input.expectedUpdatedAt)) throw new AppError('CONFLICT', agreementMessages.stale);
        if (before.status !== 'active' && before.status !== 'pending') throw new AppError('CONFLICT', agreementMessages.notActive);
        const equipmentIds = input.equipmentIds ? await ownedEquipment(tx, before.customerId, input.equipmentIds) : undefined;
        const previousEquipment = (await agreements.equipmentOf([id])).get(id) ?? [];
        const after = await agreements.update(id, {
          ...(input.planId ? { planId: input.planId } : {}),
          ...(input.autoRenew !== undefined ? { autoRenew: input.autoRenew } : {}),
          ...(input.billing ? { billing: input.billing } : {}),
          ...(input.notes !== undefined ? { notes: input.notes } : {}),
        });
        const extra: Record<string, [unknown, unknown]> = {};
        if (equipmentIds && equipmentIds.slice().sort().join() !== previousEquipment.join()) {
          await agreements.setEquipment(id, equipmentIds);
          extra.equipmentIds = [previousEquipment, equipmentIds];
        }
        if (after.planId !== before.planId) {
          const seasons = new Set(maintenancePlanVisits[after.planId as MaintenancePlanId].map((rule) => rule.season));
          const dropped = (Object.keys(maintenanceSeasons) as MaintenanceSeason[]).filter((season) => !seasons.has(season));
          if (dropped.length > 0) await cancelOpenVisits(tx, id, actor, dropped);
        }
        const changes = diffFields(before, after, { only: auditedFields });
        if (hasChanges(changes) || Object.keys(extra).length > 0) await audit(tx, actor, before, after, after.planId !== before.planId ? 'plan_changed' : 'updated', extra);
        await generateFor(tx, id);
        return detailIn(tx, id);
      });
    },

    /** Cancels the agreement with a reason; its open visits (pending or scheduled) are cancelled, done ones stay. */
    async cancel(id: string, reason: string, actor: AuditActor): Promise<AgreementDetail> {
      if (!isUuid(id)) throw notFound();
      return withTransaction(db, async (tx) => {
        const agreements = repository(tx);
        const before = await agreements.lockById(id);
        if (!before) throw notFound();
        if (before.status === 'cancelled') throw new AppError('CONFLICT', agreementMessages.alreadyCancelled);
        const after = await agreements.update(id, { status: 'cancelled', cancelledAt: now(), cancellationReason: reason, autoRenew: false });
        const cancelledVisits = await cancelOpenVisits(tx, id, actor);
        await audit(tx, actor, before, after, 'cancelled', { visitsCancelled: [null, cancelledVisits] });
        return detailIn(tx, id);
      });
    },

    /** Generates the visits due today for every active agreement, a batch of agreements per transaction. */
    async generateDue(): Promise<GenerationResult> {
      const day = today();
      const rows = await repository(db).activeForGeneration(day, addDays(day, leadDays));
      let visits = 0;
      for (let index = 0; index < rows.length; index += generationBatchSize) {
        const batch = rows.slice(index, index + generationBatchSize);
        visits += await withTransaction(db, (tx) => generateIn(tx, batch, day));
      }
      return { agreements: rows.length, visits };
    },

    /**
     * Terms that ended: an auto-renewing agreement gets its next term(s) until one covers today, at
     * the plan's price; another expires. Then the renewal reminders due, once per term. Rows are
     * claimed with SKIP LOCKED, so two instances never renew one agreement twice.
     */
    async renewDue(): Promise<RenewalResult> {
      const day = today();
      const result: RenewalResult = { renewed: 0, expired: 0, reminded: 0 };
      for (;;) {
        const handled = await withTransaction(db, async (tx) => {
          const agreements = repository(tx);
          const ended = await agreements.endedTerms(day);
          for (const before of ended) {
            if (!before.autoRenew) {
              const after = await agreements.update(before.id, { status: 'expired' });
              await cancelOpenVisits(tx, before.id, systemActors.system);
              await audit(tx, systemActors.system, before, after, 'expired');
              result.expired += 1;
              continue;
            }
            let { currentTermNumber: number, currentTermEndsOn: endsOn } = before;
            let startsOn = before.currentTermStartsOn;
            const priceCents = planPriceCents(before.planId as MaintenancePlanId);
            while (endsOn < day) {
              number += 1;
              startsOn = addDays(endsOn, 1);
              endsOn = termEnd(startsOn, before.termMonths);
              await agreements.insertTerm({ agreementId: before.id, termNumber: number, planId: before.planId, startsOn, endsOn, priceCents });
            }
            const after = await agreements.update(before.id, { currentTermNumber: number, currentTermStartsOn: startsOn, currentTermEndsOn: endsOn, priceCents });
            const invoice = createRenewalInvoice ? await createRenewalInvoice(tx, termInvoice(after)) : undefined;
            await audit(tx, systemActors.system, before, after, 'renewed', { term: [before.currentTermNumber, number], ...(invoice ? { invoiceId: [null, invoice.id] } : {}) });
            result.renewed += 1;
          }
          return ended.length;
        });
        if (handled === 0) break;
      }
      const reminded = await withTransaction(db, async (tx) => {
        const agreements = repository(tx);
        const claimed = await agreements.claimRenewalReminders(addDays(day, renewalReminderDays), day, now());
        const emails = [];
        for (const { agreementId } of claimed) {
          const row = (await agreements.byId(agreementId))!;
          const customer = await agreements.customer(row.customerId);
          if (!customer?.email) continue;
          const { subject, text } = reminderText(row, customer.name);
          emails.push({ recipients: [customer.email], subject, text, relatedType: 'maintenance_agreement', relatedId: row.id, kind: 'agreement_renewal_reminder' });
        }
        await outbox.enqueue(tx, emails);
        return emails.length;
      });
      if (reminded > 0) outbox.kick();
      result.reminded = reminded;
      return result;
    },

    /**
     * Monthly billing: a draft invoice for each month of a current term (2 to 12) that has begun, once
     * per agreement, term and month (claimed by its row, so a restart or a second instance bills none
     * twice). Months that began before the agreement was recorded (a sale entered late) are the
     * office's to bill. Without invoicing, nothing.
     */
    async billDue(): Promise<BillingResult> {
      if (!createRenewalInvoice) return { billed: 0 };
      const day = today();
      const candidates = await repository(db).monthlyBilled(addDays(day, -27));
      let billed = 0;
      for (let first = 0; first < candidates.length; first += generationBatchSize) {
        billed += await withTransaction(db, async (tx) => {
          const agreements = repository(tx);
          let count = 0;
          for (const { agreement, billedMonths } of candidates.slice(first, first + generationBatchSize)) {
            const recordedOn = todayIn(timeZone, agreement.createdAt);
            for (let month = 2; month <= agreement.termMonths; month += 1) {
              const startsOn = addMonths(agreement.currentTermStartsOn, month - 1);
              if (startsOn > day) break;
              if (billedMonths.includes(month) || startsOn < recordedOn) continue;
              if (!(await agreements.claimBill(agreement.id, agreement.currentTermNumber, month))) continue;
              const invoice = await createRenewalInvoice(tx, termInvoice(agreement, month));
              await agreements.setBillInvoice(agreement.id, agreement.currentTermNumber, month, invoice.id);
              await audit(tx, systemActors.system, agreement, agreement, 'billed', { month: [null, month], invoiceId: [null, invoice.id] });
              count += 1;
            }
          }
          return count;
        });
      }
      return { billed };
    },

    /** The hourly run: renewals and expiries first (a renewed term's visits are then due), then the month's bills and the visits. */
    async runDue(): Promise<RenewalResult & BillingResult & GenerationResult> {
      const renewal = await this.renewDue();
      const billing = await this.billDue();
      const generation = await this.generateDue();
      return { ...renewal, ...billing, ...generation };
    },

    async visitsDue(query: VisitsDueQuery): Promise<VisitsDueResponse> {
      const month = query.month ?? today().slice(0, 7);
      const zips = query.area ? serviceAreas.find((area) => area.slug === query.area)?.zipCodes : undefined;
      const { rows, total } = await repository(db).visitsDue({
        monthStart: `${month}-01`,
        monthEnd: monthEnd(month),
        ...(zips ? { zips } : {}),
        ...(query.plan ? { planId: query.plan } : {}),
        unscheduledOnly: query.include === 'unscheduled',
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
        timeZone,
      });
      return {
        month,
        total,
        page: query.page,
        pageSize: query.pageSize,
        visits: rows.map((row) => ({
          id: row.id,
          period: row.period,
          season: row.season as MaintenanceSeason,
          dueFrom: row.dueFrom,
          dueBy: row.dueBy,
          workOrderId: row.workOrderId,
          workOrderNumber: row.workOrderNumber,
          title: row.title,
          status: row.status,
          scheduledDate: row.scheduledDay,
          agreementId: row.agreementId,
          agreementNumber: row.agreementNumber,
          planId: row.planId as MaintenancePlanId,
          planName: planName(row.planId),
          customerId: row.customerId,
          customerName: row.customerName,
          customerPhone: row.customerPhone,
          address: row.address,
          city: row.city,
          zip: row.zip ?? '',
        })),
      };
    },

    async summary(): Promise<AgreementSummary> {
      const day = today();
      const month = day.slice(0, 7);
      const figures = await repository(db).summary(day, `${month}-01`, monthEnd(month), addDays(day, 30));
      return { active: figures.active, visitsDueThisMonth: figures.visitsDue, renewalsNext30Days: figures.renewals, recurringRevenueCentsPerMonth: figures.monthlyCents };
    },
  };
}

export type AgreementService = ReturnType<typeof createAgreementService>;

/**
 * The member discount of a customer's plan on a date (issue 22): the plan's repair discount
 * (shared/maintenance-plans.ts) while an agreement is active, else nothing. The invoices module
 * applies it to a work order's proposed lines.
 */
export async function memberDiscountOn(executor: DbExecutor, customerId: string, date: string): Promise<{ percent: number; label: string } | undefined> {
  const agreement = await activeAgreementOn(executor, customerId, date);
  const plan = agreement ? maintenancePlanById(agreement.planId) : undefined;
  if (!agreement || !plan) return undefined;
  return { percent: plan.repairDiscountPercent, label: `${plan.name} plan member (${agreement.agreementNumber}): ${plan.repairDiscountPercent}% off` };
}
