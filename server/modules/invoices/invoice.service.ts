import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { addDays, monthStart, todayIn } from '#shared/dates.ts';
import type { InvoiceKind, InvoiceStatus, PaymentMethod, PriceBookItemKind, WorkOrderServiceType } from '#shared/enums.ts';
import {
  documentNumber,
  invoiceMessages,
  isOverdue,
  taxLabel,
  type applyCreditSchema,
  type creditNoteCreateSchema,
  type Invoice,
  type InvoiceDetailResponse,
  type invoiceCreateSchema,
  type invoiceDraftUpdateSchema,
  type InvoiceListItem,
  type InvoiceListQuery,
  type InvoiceListResponse,
  type Payment,
  type paymentCreateSchema,
  type ReceivablesSummary,
  type refundCreateSchema,
} from '#shared/invoice.ts';
import { documentLineValuesOf, type DocumentLineValues } from '#shared/document-line.ts';
import type { DocumentDelivery } from '#shared/invoice-link.ts';
import { companyParty, customerAddressLines } from '#shared/billing-document.ts';
import { documentTotals, formatCents } from '#shared/money.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { priceBookItems } from '#server/db/schema/index.ts';
import { AppError } from '#server/errors.ts';
import { memberDiscountOn } from '#server/modules/agreements/index.ts';
import { recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { createInvoiceRepository, type InvoiceRow, type PaymentRow } from './invoice.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

type CreateValues = z.output<typeof invoiceCreateSchema>;
type DraftValues = z.output<typeof invoiceDraftUpdateSchema>;
type CreditNoteValues = z.output<typeof creditNoteCreateSchema>;
type ApplyCreditValues = z.output<typeof applyCreditSchema>;
type PaymentValues = z.output<typeof paymentCreateSchema>;
type RefundValues = z.output<typeof refundCreateSchema>;

const notFound = () => new AppError('NOT_FOUND', invoiceMessages.notFound);
const conflict = (message: string) => new AppError('CONFLICT', message);
const invalid = (message: string, path = 'amountCents') => new AppError('VALIDATION_FAILED', message, [{ path, message }]);

/** The id from the address, lower-cased; a 404 when it cannot be one. */
function idFrom(id: string, missing = notFound): string {
  if (!isUuid(id)) throw missing();
  return id.toLowerCase();
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23505';
}

const serviceLineNames: Record<WorkOrderServiceType, string> = {
  repair: 'Repair service',
  maintenance: 'Maintenance visit',
  installation: 'Installation',
  inspection: 'Inspection',
  ductwork: 'Ductwork service',
};

/** A line's stored columns from its values, with its amount by shared/money.ts's rule. */
function lineRows(lines: DocumentLineValues[]) {
  const totals = documentTotals(lines);
  return {
    totals,
    rows: lines.map((line, index) => ({ ...line, position: index + 1, amountCents: totals.lines[index]!.amountCents })),
  };
}

function totalsColumns(totals: ReturnType<typeof documentTotals>) {
  return {
    subtotalCents: totals.subtotalCents,
    discountCents: totals.discountCents,
    taxCents: totals.taxCents,
    totalCents: totals.totalCents,
    taxes: totals.taxes.map((tax) => ({ ...tax, label: taxLabel(tax.ratePpm) })),
  };
}

function billTo(customer: { name: string; address: string; city: string; state: string; zip: string | null; email: string | null; phone: string }) {
  return {
    billingName: customer.name,
    billingAddressLines: customerAddressLines(customer),
    billingEmail: customer.email,
    billingPhone: customer.phone,
  };
}

/**
 * What a caller other than the office adds to a payment's rules (the technician app, decision
 * 025-a), all in the payment's transaction: `check` runs once the invoice is locked, before any
 * other rule (and on a replay, before answering it), and throws to refuse; `recorded` runs after
 * the payment and the invoice's new figures are stored; `audit` adds facts to the invoice's entry.
 */
export type PaymentScope = {
  check?: (executor: DbExecutor, invoice: InvoiceRow) => Promise<void>;
  recorded?: (tx: DbExecutor, payment: Payment, invoice: Invoice) => Promise<void>;
  audit?: Record<string, [unknown, unknown]>;
};

export type InvoiceServiceOptions = {
  db: Database;
  timeZone: string;
  company: CompanyProfile;
  now?: () => Date;
  /** Sending on issue (invoice.sending.ts, decision 024-h): queued in the issuing transaction, then the runner is told. */
  sending?: {
    onIssued: (tx: DbExecutor, row: InvoiceRow, actor: AuditActor) => Promise<DocumentDelivery | undefined>;
    afterQueued: () => void;
  };
  /** After a void commits (invoice.online.ts expires its open Stripe checkouts). */
  onVoided?: (invoiceId: string) => void;
  /** The approved quote option's lines of a work order (the quotes module, decision 025-c). */
  approvedQuoteLines?: (tx: DbExecutor, workOrderId: string) => Promise<{ quoteId: string; quoteNumber: string | null; lines: DocumentLineValues[] } | undefined>;
};

export function createInvoiceService(options: InvoiceServiceOptions) {
  const { db, timeZone, company, now = () => new Date() } = options;
  const today = () => todayIn(timeZone, now());
  const repository = createInvoiceRepository(db);
  /**
   * The A/R figures, kept per database snapshot and company day like the dashboard's (decision
   * 013): they read every open invoice, and can only change when a transaction commits.
   */
  const receivablesCache = createSnapshotCache<ReceivablesSummary>(db, { maxEntries: 2 });
  /**
   * The Invoices screen's totals, kept the same way per filter and company day: every page of a
   * filter has the same total, and counting up to the cap costs more than the page itself
   * (decision 026-a).
   */
  const listCounts = createSnapshotCache<number>(db, { maxEntries: 32 });

  function toInvoice(row: InvoiceRow, extra: { workOrderNumber?: string | null; workOrderCompleted?: boolean; creditedInvoiceNumber?: string | null } = {}): Invoice {
    return {
      id: row.id,
      kind: row.kind as InvoiceKind,
      invoiceNumber: row.invoiceNumber,
      status: row.status as InvoiceStatus,
      overdue: row.kind === 'invoice' && isOverdue(row.status as InvoiceStatus, row.dueOn, today()),
      customerId: row.customerId,
      workOrderId: row.workOrderId,
      workOrderNumber: extra.workOrderNumber ?? null,
      workOrderCompleted: extra.workOrderCompleted ?? false,
      creditedInvoiceId: row.creditedInvoiceId,
      creditedInvoiceNumber: extra.creditedInvoiceNumber ?? null,
      issuedOn: row.issuedOn,
      dueOn: row.dueOn,
      billingName: row.billingName,
      billingAddressLines: row.billingAddressLines,
      billingEmail: row.billingEmail,
      billingPhone: row.billingPhone,
      notes: row.notes,
      subtotalCents: row.subtotalCents,
      discountCents: row.discountCents,
      taxCents: row.taxCents,
      totalCents: row.totalCents,
      taxes: row.taxes,
      paidCents: row.paidCents,
      balanceCents: row.balanceCents ?? row.totalCents - row.paidCents,
      sentAt: iso(row.sentAt),
      paidAt: iso(row.paidAt),
      voidedAt: iso(row.voidedAt),
      voidReason: row.voidReason,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  function toPayment(row: PaymentRow, refundedCents: number, creditNoteNumber: string | null): Payment {
    return {
      id: row.id,
      kind: row.kind as Payment['kind'],
      method: row.method as PaymentMethod,
      amountCents: row.amountCents,
      receivedOn: row.receivedOn,
      reference: row.reference,
      note: row.note,
      refundOfPaymentId: row.refundOfPaymentId,
      creditNoteId: row.creditNoteId,
      creditNoteNumber,
      refundedCents,
      recordedByName: row.recordedByName,
      createdAt: row.createdAt.toISOString(),
    };
  }

  const label = (row: InvoiceRow) => row.invoiceNumber ?? `Draft for ${row.billingName}`;

  async function audit(tx: DbExecutor, actor: AuditActor, row: InvoiceRow, action: string, changes: Record<string, [unknown, unknown]> = {}) {
    await recordAudit(tx, { actor, entityType: 'invoice', entityId: row.id, entityLabel: label(row), action, changes });
  }

  /** Locks an invoice for a change; 404 when it does not exist. */
  async function locked(tx: DbExecutor, id: string): Promise<InvoiceRow> {
    const row = await createInvoiceRepository(tx).lock(idFrom(id));
    if (!row) throw notFound();
    return row;
  }

  /** Lines proposed from a completed work order: its service, then the materials the technician recorded (priced from the price book when a name matches). */
  async function workOrderLines(tx: DbExecutor, found: NonNullable<Awaited<ReturnType<ReturnType<typeof createInvoiceRepository>['workOrder']>>>, defaultTaxRatePpm: number): Promise<DocumentLineValues[]> {
    const { workOrder } = found;
    const serviceLine: DocumentLineValues = {
      priceBookItemId: null,
      kind: 'service',
      code: '',
      name: serviceLineNames[workOrder.serviceType as WorkOrderServiceType] ?? 'Service',
      description: workOrder.title,
      quantityMilli: 1000,
      unitPriceCents: 0,
      discountBps: 0,
      discountCents: 0,
      taxable: false,
      taxRatePpm: 0,
    };
    const materials = found.materials ?? [];
    const names = [...new Set(materials.map((material) => material.description.trim().toLowerCase()))];
    const items =
      names.length === 0
        ? []
        : await tx
            .select()
            .from(priceBookItems)
            .where(and(eq(priceBookItems.active, true), sql`lower(${priceBookItems.name}) in (${sql.join(names.map((name) => sql`${name}`), sql`, `)})`));
    const byName = new Map(items.map((item) => [item.name.toLowerCase(), item]));
    const materialLines = materials.map((material): DocumentLineValues => {
      const item = byName.get(material.description.trim().toLowerCase());
      const quantityMilli = Math.max(1, Math.round(material.quantity * 1000));
      if (!item) {
        return { ...serviceLine, kind: 'part', name: material.description.trim().slice(0, 200), description: '', quantityMilli, taxable: defaultTaxRatePpm > 0, taxRatePpm: defaultTaxRatePpm };
      }
      return {
        priceBookItemId: item.id,
        kind: item.kind as PriceBookItemKind,
        code: item.code,
        name: item.name,
        description: item.description,
        quantityMilli,
        unitPriceCents: item.priceCents,
        discountBps: 0,
        discountCents: 0,
        taxable: item.taxable,
        taxRatePpm: item.taxable ? defaultTaxRatePpm : 0,
      };
    });
    return [serviceLine, ...materialLines];
  }

  /**
   * A completed work order's proposed lines: the approved quote option's lines when the work order
   * came from (or was linked to) an approved quote (decision 025-c), then the materials recorded
   * on site that the quote does not name; else its service and materials (workOrderLines).
   */
  async function proposedLines(tx: DbExecutor, found: Parameters<typeof workOrderLines>[1], defaultTaxRatePpm: number): Promise<{ lines: DocumentLineValues[]; quoteId: string | null; quoteNumber: string | null }> {
    const quoted = await options.approvedQuoteLines?.(tx, found.workOrder.id);
    const fromWorkOrder = await workOrderLines(tx, found, defaultTaxRatePpm);
    if (!quoted) return { lines: fromWorkOrder, quoteId: null, quoteNumber: null };
    const named = new Set(quoted.lines.map((line) => line.name.trim().toLowerCase()));
    const extraMaterials = fromWorkOrder.slice(1).filter((line) => !named.has(line.name.trim().toLowerCase()));
    return { lines: [...quoted.lines, ...extraMaterials], quoteId: quoted.quoteId, quoteNumber: quoted.quoteNumber };
  }

  async function insertDraft(tx: DbExecutor, values: { customerId: string; workOrderId: string | null; quoteId?: string | null; lines: DocumentLineValues[]; notes: string }, actor: AuditActor, action: string) {
    const repo = createInvoiceRepository(tx);
    const customer = await repo.customer(values.customerId);
    if (!customer) throw invalid(invoiceMessages.customerNotFound, 'customerId');
    const { totals, rows } = lineRows(values.lines);
    const row = await repo.insert({
      kind: 'invoice',
      customerId: customer.id,
      workOrderId: values.workOrderId,
      quoteId: values.quoteId ?? null,
      status: 'draft',
      ...billTo(customer),
      notes: values.notes,
      ...totalsColumns(totals),
      createdById: actor.id,
    });
    await repo.replaceLines(row.id, rows);
    await audit(tx, actor, row, action, { totalCents: [null, row.totalCents] });
    return row;
  }

  /** Issues a draft in `tx`: its gapless number, dates and bill-to (decision 024-c). */
  async function issueIn(tx: DbExecutor, row: InvoiceRow, actor: AuditActor): Promise<InvoiceRow> {
    const repo = createInvoiceRepository(tx);
    const settings = await repo.settings();
    const customer = await repo.customer(row.customerId);
    const issuedOn = today();
    const number = await repo.nextNumber(row.kind as 'invoice' | 'credit_note');
    const invoiceNumber = documentNumber(row.kind as 'invoice' | 'credit_note', number);
    const issued = await repo.update(row.id, {
      invoiceNumber,
      issuedOn,
      dueOn: addDays(issuedOn, settings.paymentTermsDays),
      ...(customer ? billTo(customer) : {}),
      status: row.totalCents === 0 && row.kind === 'invoice' ? 'paid' : 'sent',
      paidAt: row.totalCents === 0 && row.kind === 'invoice' ? now() : null,
      sentAt: now(),
    });
    await audit(tx, actor, issued, 'issued', { invoiceNumber: [null, invoiceNumber], status: ['draft', issued.status], totalCents: [null, issued.totalCents] });
    return issued;
  }

  async function detailIn(tx: DbExecutor, id: string): Promise<InvoiceDetailResponse> {
    const repo = createInvoiceRepository(tx);
    const row = await repo.find(idFrom(id));
    if (!row) throw notFound();
    const [lines, paymentRows, creditNotes, history, settings, workOrder, creditedInvoiceNumber] = await Promise.all([
      repo.lines(row.id),
      repo.payments(row.id),
      row.kind === 'invoice' ? repo.creditNotesOf(row.id) : Promise.resolve([]),
      repo.history(row.id),
      repo.settings(),
      repo.workOrderNumber(row.workOrderId),
      repo.numberOf(row.creditedInvoiceId),
    ]);
    const refunded = new Map<string, number>();
    for (const { payment } of paymentRows) {
      if (payment.kind === 'refund' && payment.refundOfPaymentId) refunded.set(payment.refundOfPaymentId, (refunded.get(payment.refundOfPaymentId) ?? 0) + payment.amountCents);
    }
    return {
      invoice: toInvoice(row, { workOrderNumber: workOrder?.number ?? null, workOrderCompleted: workOrder?.status === 'completed', creditedInvoiceNumber }),
      lines: lines.map((line) => ({
        id: line.id,
        position: line.position,
        ...documentLineValuesOf(line),
        amountCents: line.amountCents,
      })),
      payments: paymentRows.map(({ payment, creditNoteNumber }) => toPayment(payment, refunded.get(payment.id) ?? 0, payment.creditNoteId ? creditNoteNumber : null)),
      creditNotes: creditNotes.map((note) => ({
        id: note.id,
        invoiceNumber: note.invoiceNumber,
        status: note.status as InvoiceStatus,
        totalCents: note.totalCents,
        remainingCents: note.status === 'void' ? 0 : note.totalCents - note.paidCents,
        issuedOn: note.issuedOn,
      })),
      history: history.map((entry) => ({ ...entry, occurredAt: entry.occurredAt.toISOString(), changes: entry.changes as Record<string, [unknown, unknown]> })),
      company: companyParty(company),
      footer: settings.invoiceFooter,
      defaultTaxRatePpm: settings.defaultTaxRatePpm,
    };
  }

  return {
    async list(query: InvoiceListQuery): Promise<InvoiceListResponse> {
      const day = today();
      const { page: _page, pageSize: _pageSize, ...filter } = query;
      const { rows, total, totalCapped } = await repository.list(query, day, (snapshot) =>
        listCounts.at(snapshot, JSON.stringify([day, filter]), () => repository.listCount(query, day)),
      );
      return {
        invoices: rows.map(
          (row): InvoiceListItem => ({
            ...row,
            kind: row.kind as InvoiceKind,
            status: row.status as InvoiceStatus,
            overdue: row.kind === 'invoice' && isOverdue(row.status as InvoiceStatus, row.dueOn, day),
            balanceCents: row.balanceCents ?? row.totalCents - row.paidCents,
            createdAt: new Date(row.createdAt).toISOString(),
          }),
        ),
        page: query.page,
        pageSize: query.pageSize,
        total,
        totalCapped,
      };
    },

    /** Unpaid, overdue, aging and paid this month, in the company's time zone. */
    async receivables(): Promise<ReceivablesSummary> {
      const day = today();
      return receivablesCache.get(day, async () => ({ today: day, ...(await repository.receivables(day, monthStart(day), monthStart(day, 1))) }));
    },

    async detail(id: string): Promise<InvoiceDetailResponse> {
      return detailIn(db, id);
    },

    async create(values: CreateValues, actor: AuditActor): Promise<InvoiceDetailResponse> {
      const row = await withTransaction(db, async (tx) => {
        if (values.workOrderId) {
          const workOrder = await createInvoiceRepository(tx).workOrderNumber(values.workOrderId);
          if (!workOrder) throw invalid(invoiceMessages.workOrderNotFound, 'workOrderId');
          if (workOrder.customerId !== values.customerId) throw invalid(invoiceMessages.workOrderOtherCustomer, 'workOrderId');
        }
        return insertDraft(tx, values, actor, 'created');
      });
      return detailIn(db, row.id);
    },

    /**
     * A draft made by another module inside its own transaction: a maintenance agreement's renewal
     * (issue 22). The office reviews and issues it as any draft.
     */
    async createDraftIn(tx: DbExecutor, values: { customerId: string; lines: DocumentLineValues[]; notes: string }, actor: AuditActor): Promise<{ id: string }> {
      const row = await insertDraft(tx, { ...values, workOrderId: null }, actor, 'created');
      return { id: row.id };
    },

    /**
     * An invoice made and issued by another module inside its own transaction: the first term of a
     * plan sign-up paid online (decision 027-c), whose payment is recorded on it at once.
     */
    async createIssuedIn(tx: DbExecutor, values: { customerId: string; lines: DocumentLineValues[]; notes: string }, actor: AuditActor): Promise<{ id: string; invoiceNumber: string }> {
      const draft = await insertDraft(tx, { ...values, workOrderId: null }, actor, 'created');
      const issued = await issueIn(tx, draft, actor);
      return { id: issued.id, invoiceNumber: issued.invoiceNumber! };
    },

    /** A draft from a completed work order: its customer, its service and the technician's materials. */
    async createFromWorkOrder(workOrderId: string, actor: AuditActor): Promise<InvoiceDetailResponse> {
      const id = idFrom(workOrderId, () => new AppError('NOT_FOUND', invoiceMessages.workOrderNotFound));
      const row = await withTransaction(db, async (tx) => {
        const repo = createInvoiceRepository(tx);
        const found = await repo.workOrder(id);
        if (!found) throw new AppError('NOT_FOUND', invoiceMessages.workOrderNotFound);
        if (found.workOrder.status !== 'completed') throw conflict(invoiceMessages.workOrderNotCompleted);
        const settings = await repo.settings();
        const proposed = await proposedLines(tx, found, settings.defaultTaxRatePpm);
        const { quoteId, quoteNumber } = proposed;
        // A maintenance plan member's discount (issue 22) on every priced line that has none of its own.
        const member = await memberDiscountOn(tx, found.workOrder.customerId, found.workOrder.serviceDate);
        const lines = member
          ? proposed.lines.map((entry) => (entry.unitPriceCents > 0 && entry.discountBps === 0 && entry.discountCents === 0 ? { ...entry, discountBps: member.percent * 100 } : entry))
          : proposed.lines;
        const notes = [quoteNumber ? `As quoted in ${quoteNumber}.` : '', member ? `${member.label}.` : '', found.summary ? `Work done: ${found.summary}` : ''].filter(Boolean).join(' ').slice(0, 4000);
        return insertDraft(tx, { customerId: found.workOrder.customerId, workOrderId: id, quoteId, lines, notes }, actor, 'created_from_work_order');
      });
      return detailIn(db, row.id);
    },

    /** A draft's lines and notes; an issued invoice is never edited (409). */
    async updateDraft(id: string, values: DraftValues, actor: AuditActor): Promise<InvoiceDetailResponse> {
      await withTransaction(db, async (tx) => {
        const row = await locked(tx, id);
        if (row.status !== 'draft') throw conflict(invoiceMessages.notDraft);
        const repo = createInvoiceRepository(tx);
        const { totals, rows } = lineRows(values.lines);
        await repo.replaceLines(row.id, rows);
        const updated = await repo.update(row.id, { notes: values.notes, ...totalsColumns(totals) });
        await audit(tx, actor, updated, 'draft_updated', {
          ...(row.totalCents !== updated.totalCents ? { totalCents: [row.totalCents, updated.totalCents] as [unknown, unknown] } : {}),
          lines: [null, rows.length],
        });
      });
      return detailIn(db, id);
    },

    async issue(id: string, actor: AuditActor): Promise<InvoiceDetailResponse & { delivery?: DocumentDelivery }> {
      const delivery = await withTransaction(db, async (tx) => {
        const row = await locked(tx, id);
        if (row.status !== 'draft') throw conflict(invoiceMessages.alreadyIssued);
        const lines = await createInvoiceRepository(tx).lines(row.id);
        if (lines.length === 0) throw conflict(invoiceMessages.noLines);
        const issued = await issueIn(tx, row, actor);
        return options.sending?.onIssued(tx, issued, actor);
      });
      if (delivery) options.sending?.afterQueued();
      return { ...(await detailIn(db, id)), ...(delivery ? { delivery } : {}) };
    },

    /** Void with a reason: only an issued document with no net payment (and a credit note none of which is applied). */
    async voidInvoice(id: string, reason: string, actor: AuditActor): Promise<InvoiceDetailResponse> {
      await withTransaction(db, async (tx) => {
        const row = await locked(tx, id);
        if (row.status === 'draft') throw conflict(invoiceMessages.voidNotIssued);
        if (row.status === 'void') throw conflict(invoiceMessages.alreadyVoid);
        if (row.paidCents !== 0) throw conflict(invoiceMessages.voidHasPayments);
        const voided = await createInvoiceRepository(tx).update(row.id, { status: 'void', voidedAt: now(), voidReason: reason });
        await audit(tx, actor, voided, 'voided', { status: [row.status, 'void'], voidReason: [null, reason] });
      });
      // After the commit: the customer's open online checkouts of it are closed (best effort, logged).
      options.onVoided?.(idFrom(id));
      return detailIn(db, id);
    },

    /** A credit note against an issued invoice, issued at once (CN- number); never more than the invoice's total in all. */
    async createCreditNote(invoiceId: string, values: CreditNoteValues, actor: AuditActor): Promise<InvoiceDetailResponse> {
      const creditNote = await withTransaction(db, async (tx) => {
        const repo = createInvoiceRepository(tx);
        const invoice = await locked(tx, invoiceId);
        if (invoice.kind !== 'invoice') throw conflict(invoiceMessages.creditNotInvoice);
        if (invoice.status === 'draft' || invoice.status === 'void') throw conflict(invoiceMessages.notIssued);
        const lines = values.fullCredit ? (await repo.lines(invoice.id)).map(documentLineValuesOf) : values.lines;
        const { totals, rows } = lineRows(lines);
        const credited = await repo.creditedTotal(invoice.id);
        const left = invoice.totalCents - credited;
        if (totals.totalCents <= 0 || totals.totalCents > left) throw invalid(invoiceMessages.creditTooMuch(formatCents(Math.max(0, left))), 'lines');
        const draft = await repo.insert({
          kind: 'credit_note',
          customerId: invoice.customerId,
          workOrderId: invoice.workOrderId,
          creditedInvoiceId: invoice.id,
          status: 'draft',
          billingName: invoice.billingName,
          billingAddressLines: invoice.billingAddressLines,
          billingEmail: invoice.billingEmail,
          billingPhone: invoice.billingPhone,
          notes: values.notes,
          ...totalsColumns(totals),
          createdById: actor.id,
        });
        await repo.replaceLines(draft.id, rows);
        await audit(tx, actor, draft, 'created', { creditedInvoice: [null, invoice.invoiceNumber], totalCents: [null, draft.totalCents] });
        const issued = await issueIn(tx, draft, actor);
        await audit(tx, actor, invoice, 'credit_note_issued', { creditNote: [null, issued.invoiceNumber], amountCents: [null, issued.totalCents] });
        return issued;
      });
      return detailIn(db, creditNote.id);
    },

    /** Applies (part of) a credit note to its invoice: a payment of method credit_note; the credit note's own paid figure is what was used of it. */
    async applyCredit(invoiceId: string, values: ApplyCreditValues, actor: AuditActor): Promise<InvoiceDetailResponse> {
      await withTransaction(db, async (tx) => {
        const invoice = await locked(tx, invoiceId);
        const creditNote = await createInvoiceRepository(tx).lock(values.creditNoteId);
        if (!creditNote || creditNote.kind !== 'credit_note' || creditNote.creditedInvoiceId !== invoice.id || creditNote.status === 'void')
          throw invalid(invoiceMessages.creditNotCreditNote, 'creditNoteId');
        if (invoice.status !== 'sent' && invoice.status !== 'partially_paid') throw conflict(invoice.status === 'paid' ? invoiceMessages.zeroBalance : invoiceMessages.notIssued);
        const remaining = creditNote.totalCents - creditNote.paidCents;
        if (remaining <= 0) throw conflict(invoiceMessages.creditNoRemaining);
        const balance = invoice.totalCents - invoice.paidCents;
        const most = Math.min(remaining, balance);
        const amount = values.amountCents ?? most;
        if (amount > most) throw invalid(invoiceMessages.creditApplyTooMuch(formatCents(most)));
        await createInvoiceRepository(tx).insertPayment({
          invoiceId: invoice.id,
          kind: 'payment',
          method: 'credit_note',
          amountCents: amount,
          receivedOn: today(),
          creditNoteId: creditNote.id,
          reference: creditNote.invoiceNumber ?? '',
          recordedById: actor.id,
          recordedByName: actor.name,
        });
        const updated = await createInvoiceRepository(tx).movePaid(invoice, amount, now());
        await createInvoiceRepository(tx).movePaid(creditNote, amount, now());
        await audit(tx, actor, updated, 'credit_applied', { creditNote: [null, creditNote.invoiceNumber], amountCents: [null, amount], paidCents: [invoice.paidCents, updated.paidCents], status: [invoice.status, updated.status] });
        await audit(tx, actor, creditNote, 'applied', { invoice: [null, invoice.invoiceNumber], amountCents: [null, amount] });
      });
      return detailIn(db, invoiceId);
    },

    /**
     * Records money received: never more than the balance (an overpayment is refused, nothing is
     * stored). A retry with the same idempotency key answers the first payment.
     */
    async recordPayment(invoiceId: string, values: PaymentValues, actor: AuditActor, scope: PaymentScope = {}): Promise<{ payment: Payment; invoice: Invoice; applied: boolean }> {
      const id = idFrom(invoiceId);
      if (values.idempotencyKey) {
        const previous = await repository.paymentByIdempotencyKey(values.idempotencyKey);
        if (previous) return replay(previous, id, scope);
      }
      try {
        return await withTransaction(db, async (tx) => {
          const invoice = await locked(tx, id);
          await scope.check?.(tx, invoice);
          if (invoice.kind !== 'invoice' || invoice.status === 'draft' || invoice.status === 'void') throw conflict(invoiceMessages.notIssued);
          const balance = invoice.totalCents - invoice.paidCents;
          if (balance <= 0) throw conflict(invoiceMessages.zeroBalance);
          if (values.amountCents > balance) throw invalid(invoiceMessages.overpayment(formatCents(balance)));
          const payment = await createInvoiceRepository(tx).insertPayment({
            invoiceId: invoice.id,
            kind: 'payment',
            method: values.method,
            amountCents: values.amountCents,
            receivedOn: values.receivedOn,
            reference: values.reference,
            note: values.note,
            idempotencyKey: values.idempotencyKey ?? null,
            recordedById: actor.id,
            recordedByName: actor.name,
          });
          const updated = await createInvoiceRepository(tx).movePaid(invoice, values.amountCents, now());
          await audit(tx, actor, updated, 'payment_recorded', {
            method: [null, values.method],
            amountCents: [null, values.amountCents],
            paidCents: [invoice.paidCents, updated.paidCents],
            status: [invoice.status, updated.status],
            ...scope.audit,
          });
          const answer = { payment: toPayment(payment, 0, null), invoice: toInvoice(updated), applied: true };
          await scope.recorded?.(tx, answer.payment, answer.invoice);
          return answer;
        });
      } catch (error) {
        // The same key sent twice at once: the unique index let one in; answer that one.
        if (values.idempotencyKey && isUniqueViolation(error)) {
          const previous = await repository.paymentByIdempotencyKey(values.idempotencyKey);
          if (previous) return replay(previous, id, scope);
        }
        throw error;
      }
    },

    /** Gives back (part of) a payment: never more than what is left of it. Admins only (the route). */
    async refund(invoiceId: string, paymentId: string, values: RefundValues, actor: AuditActor): Promise<{ payment: Payment; invoice: Invoice }> {
      return withTransaction(db, async (tx) => {
        const invoice = await locked(tx, invoiceId);
        const repo = createInvoiceRepository(tx);
        const original = isUuid(paymentId) ? await repo.payment(paymentId.toLowerCase()) : undefined;
        if (!original || original.invoiceId !== invoice.id || original.kind !== 'payment') throw new AppError('NOT_FOUND', invoiceMessages.paymentNotFound);
        if (original.method === 'credit_note') throw conflict(invoiceMessages.refundOfCredit);
        const left = original.amountCents - (await repo.refundedOf(original.id));
        if (values.amountCents > left) throw invalid(invoiceMessages.refundTooMuch(formatCents(left)));
        const refund = await repo.insertPayment({
          invoiceId: invoice.id,
          kind: 'refund',
          method: original.method,
          amountCents: values.amountCents,
          receivedOn: values.receivedOn,
          note: values.note,
          reference: original.reference,
          refundOfPaymentId: original.id,
          recordedById: actor.id,
          recordedByName: actor.name,
        });
        const updated = await createInvoiceRepository(tx).movePaid(invoice, -values.amountCents, now());
        await audit(tx, actor, updated, 'refund_recorded', {
          amountCents: [null, values.amountCents],
          paidCents: [invoice.paidCents, updated.paidCents],
          status: [invoice.status, updated.status],
        });
        return { payment: toPayment(refund, 0, null), invoice: toInvoice(updated) };
      });
    },
  };

  /** The first payment of an idempotency key, answered again (`applied: false`): nothing is recorded twice. */
  async function replay(previous: PaymentRow, invoiceId: string, scope: PaymentScope) {
    if (previous.invoiceId !== invoiceId) throw conflict(invoiceMessages.idempotencyReused);
    const invoice = await repository.find(invoiceId);
    if (!invoice) throw notFound();
    await scope.check?.(db, invoice);
    return { payment: toPayment(previous, await repository.refundedOf(previous.id), null), invoice: toInvoice(invoice), applied: false };
  }
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
