import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { companyParty, customerAddressLines, type BillingParty } from '#shared/billing-document.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import { documentLineValuesOf, type DocumentLineValues } from '#shared/document-line.ts';
import type { QuoteStatus, WorkOrderServiceType } from '#shared/enums.ts';
import type { DocumentDelivery } from '#shared/invoice-link.ts';
import { taxLabel } from '#shared/invoice.ts';
import { documentTotals, formatCents } from '#shared/money.ts';
import { notificationTypes } from '#shared/notifications.ts';
import {
  isQuoteExpired,
  quoteMessages,
  quoteNumberText,
  quoteOptionDocument,
  quoteStatusLabels,
  type PublicQuoteResponse,
  type Quote,
  type quoteApproveSchema,
  type quoteCreateSchema,
  type quoteDeclineSchema,
  type QuoteDetailResponse,
  type QuoteListQuery,
  type QuoteListResponse,
  type QuoteOption,
  type QuoteSendResponse,
  type quoteUpdateSchema,
} from '#shared/quote.ts';
import type { ObjectStorage } from '#server/adapters/storage/index.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { decodeSignature } from '#server/lib/signature-png.ts';
import { recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { readBillingSettings } from '#server/modules/billing-settings/index.ts';
import type { DocumentLinkService } from '#server/modules/document-links/index.ts';
import { queueDocumentMessages } from '#server/modules/messaging/index.ts';
import type { NotificationRepository } from '#server/modules/notifications/index.ts';
import { newWorkOrder, recordWorkOrderChange, type WorkOrderRepository } from '#server/modules/work-orders/index.ts';
import { createQuoteRepository, type NewQuoteOption, type QuoteLineRow, type QuoteOptionRow, type QuoteRow } from './quote.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

type CreateValues = z.output<typeof quoteCreateSchema>;
type UpdateValues = z.output<typeof quoteUpdateSchema>;
type ApproveValues = z.output<typeof quoteApproveSchema>;
type DeclineValues = z.output<typeof quoteDeclineSchema>;


const notFound = () => new AppError('NOT_FOUND', quoteMessages.notFound);
const conflict = (message: string) => new AppError('CONFLICT', message);
const invalid = (message: string, path: string) => new AppError('VALIDATION_FAILED', message, [{ path, message }]);
const iso = (value: Date | null) => (value ? value.toISOString() : null);
/** Every refused customer link gets this one answer (document-links). */
const linkRefused = () => new AppError('NOT_FOUND', 'This link is not valid or has expired. Please contact us for a new one.');

function idFrom(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

function toOption(option: QuoteOptionRow & { lines: QuoteLineRow[] }): QuoteOption {
  const totals = documentTotals(option.lines.map(documentLineValuesOf));
  return {
    id: option.id,
    position: option.position,
    name: option.name,
    description: option.description,
    lines: option.lines.map((line) => ({
      id: line.id,
      position: line.position,
      ...documentLineValuesOf(line),
      amountCents: line.amountCents,
    })),
    subtotalCents: option.subtotalCents,
    discountCents: option.discountCents,
    taxCents: option.taxCents,
    totalCents: option.totalCents,
    taxes: totals.taxes.map((tax) => ({ ...tax, label: taxLabel(tax.ratePpm) })),
  };
}

/** Options as stored: each line's amount and each option's totals by shared/money.ts's rule. */
function optionRows(options: UpdateValues['options']): (NewQuoteOption & { totalCents: number })[] {
  return options.map((option, index) => {
    const totals = documentTotals(option.lines);
    return {
      position: index + 1,
      name: option.name,
      description: option.description,
      subtotalCents: totals.subtotalCents,
      discountCents: totals.discountCents,
      taxCents: totals.taxCents,
      totalCents: totals.totalCents,
      lines: option.lines.map((line, lineIndex) => ({ ...line, position: lineIndex + 1, amountCents: totals.lines[lineIndex]!.amountCents })),
    };
  });
}

/** The kind of work an approved option is: equipment means an installation, else a repair. */
function serviceTypeOf(lines: QuoteLineRow[]): WorkOrderServiceType {
  return lines.some((line) => line.kind === 'equipment') ? 'installation' : 'repair';
}

export type QuoteServiceOptions = {
  db: Database;
  timeZone: string;
  company: CompanyProfile;
  storage: ObjectStorage;
  documentLinks: DocumentLinkService;
  notifications: NotificationRepository;
  /** The work orders' repository on an executor (app.ts passes it in, decision 019-l): approval makes one. */
  workOrderRepository: (executor: DbExecutor) => WorkOrderRepository;
  /** After a send's transaction commits: the messaging runner sends at once. */
  onQueued?: () => void;
  now?: () => Date;
};

/**
 * Quotes, good / better / best (issue 20, decision 025-c). A draft is edited freely; sending gives
 * it the next gapless number and a valid-until date, and queues a `quote_sent` message per
 * channel with a customer link made at send time. The customer answers through the link: an
 * approval (typed name, optional drawn signature, time and address) creates a work order or
 * updates the linked one, and notifies the office. Revising a sent quote returns it to draft and
 * revokes every link sent (the link version moves on). Every step is audited on the quote.
 */
export function createQuoteService(options: QuoteServiceOptions) {
  const { db, timeZone, company, storage, documentLinks, notifications, now = () => new Date() } = options;
  const today = () => todayIn(timeZone, now());
  const repository = createQuoteRepository(db);

  const label = (row: QuoteRow) => row.quoteNumber ?? `Draft: ${row.title}`;

  async function audit(tx: DbExecutor, actor: AuditActor, row: QuoteRow, action: string, changes: Record<string, [unknown, unknown]> = {}) {
    await recordAudit(tx, { actor, entityType: 'quote', entityId: row.id, entityLabel: label(row), action, changes });
  }

  async function locked(tx: DbExecutor, id: string): Promise<QuoteRow> {
    const row = await createQuoteRepository(tx).lock(idFrom(id));
    if (!row) throw notFound();
    return row;
  }

  function toQuote(row: QuoteRow, extra: { customerName: string; workOrderNumbers: Map<string, string> }): Quote {
    return {
      id: row.id,
      quoteNumber: row.quoteNumber,
      status: row.status as QuoteStatus,
      expired: isQuoteExpired(row.status as QuoteStatus, row.validUntil, today()),
      title: row.title,
      notes: row.notes,
      customerId: row.customerId,
      customerName: extra.customerName,
      workOrderId: row.workOrderId,
      workOrderNumber: row.workOrderId ? (extra.workOrderNumbers.get(row.workOrderId) ?? null) : null,
      estimateRequestId: row.estimateRequestId,
      aiLeadId: row.aiLeadId,
      validUntil: row.validUntil,
      sentAt: iso(row.sentAt),
      approvedOptionId: row.approvedOptionId,
      approvedAt: iso(row.approvedAt),
      approvedByName: row.approvedByName,
      approvalIp: row.approvalIp,
      hasSignature: row.approvalSignatureKey !== null,
      declinedAt: iso(row.declinedAt),
      declineReason: row.declineReason,
      resultingWorkOrderId: row.resultingWorkOrderId,
      resultingWorkOrderNumber: row.resultingWorkOrderId ? (extra.workOrderNumbers.get(row.resultingWorkOrderId) ?? null) : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  function customerParty(customer: { name: string; address: string; city: string; state: string; zip: string | null; email: string | null; phone: string }): BillingParty {
    return { name: customer.name, addressLines: customerAddressLines(customer), phone: customer.phone || undefined, email: customer.email || undefined };
  }

  async function detailIn(executor: DbExecutor, id: string): Promise<QuoteDetailResponse> {
    const repo = createQuoteRepository(executor);
    const row = await repo.find(idFrom(id));
    if (!row) throw notFound();
    const [stored, history, customer, workOrderNumbers, defaultTaxRatePpm, quoteValidityDays] = await Promise.all([
      repo.options(row.id),
      repo.history(row.id),
      repo.customer(row.customerId),
      repo.workOrderNumbers([row.workOrderId, row.resultingWorkOrderId]),
      repo.defaultTaxRatePpm(),
      readBillingSettings(executor).then((settings) => settings.quoteValidityDays),
    ]);
    return {
      quote: toQuote(row, { customerName: customer?.name ?? '', workOrderNumbers }),
      options: stored.map(toOption),
      history: history.map((entry) => ({ ...entry, occurredAt: entry.occurredAt.toISOString(), changes: entry.changes as Record<string, [unknown, unknown]> })),
      company: companyParty(company),
      customer: customer ? customerParty(customer) : { name: '', addressLines: [] },
      defaultTaxRatePpm,
      quoteValidityDays,
    };
  }

  /** Checks the quote's links: the work order is the customer's, a lead exists. */
  async function checkSources(repo: ReturnType<typeof createQuoteRepository>, values: CreateValues) {
    const customer = await repo.customer(values.customerId);
    if (!customer) throw invalid(quoteMessages.customerNotFound, 'customerId');
    if (values.workOrderId) {
      const workOrder = await repo.workOrder(values.workOrderId);
      if (!workOrder) throw invalid(quoteMessages.workOrderNotFound, 'workOrderId');
      if (workOrder.customerId !== customer.id) throw invalid(quoteMessages.workOrderOtherCustomer, 'workOrderId');
    }
    if (values.estimateRequestId && !(await repo.estimateRequest(values.estimateRequestId))) throw invalid(quoteMessages.leadNotFound, 'estimateRequestId');
    if (values.aiLeadId && !(await repo.aiLead(values.aiLeadId))) throw invalid(quoteMessages.leadNotFound, 'aiLeadId');
  }

  /** Sends (first time: numbers it and dates it) in `tx`; audited; answers what the send did. */
  async function sendIn(tx: DbExecutor, row: QuoteRow, actor: AuditActor): Promise<{ row: QuoteRow; delivery: DocumentDelivery }> {
    const repo = createQuoteRepository(tx);
    let sent = row;
    if (row.status === 'draft') {
      const stored = await repo.options(row.id);
      const empty = stored.find((option) => option.lines.length === 0);
      if (empty) throw conflict(quoteMessages.optionEmpty(empty.name));
      const quoteNumber = row.quoteNumber ?? quoteNumberText(await repo.nextNumber());
      const validUntil = row.validUntil && row.validUntil >= today() ? row.validUntil : addDays(today(), (await readBillingSettings(tx)).quoteValidityDays);
      sent = await repo.update(row.id, { quoteNumber, validUntil, status: 'sent', sentAt: now(), declinedAt: null, declineReason: null });
      await audit(tx, actor, sent, row.quoteNumber ? 'resent_after_revision' : 'sent', {
        ...(row.quoteNumber ? {} : { quoteNumber: [null, quoteNumber] }),
        status: ['draft', 'sent'],
        validUntil: [row.validUntil, validUntil],
      });
    } else if (row.status !== 'sent') {
      throw conflict(quoteMessages.notSendable);
    } else if (isQuoteExpired('sent', row.validUntil, today())) {
      throw conflict(quoteMessages.expired);
    }
    const delivery = await queueDocumentMessages(tx, {
      type: 'quote_sent',
      documentType: 'quote',
      documentId: sent.id,
      customerId: sent.customerId,
      workOrderId: sent.workOrderId,
      sendKey: `quote-${randomUUID()}`,
      timeZone,
      now: now(),
    });
    await audit(tx, actor, sent, 'send_queued', {
      channels: [null, delivery.queued.join(', ') || 'none'],
      ...(delivery.skipped.length > 0 ? { skipped: [null, delivery.skipped.map((skip) => `${skip.channel}: ${skip.reason}`).join('; ')] } : {}),
    });
    return { row: sent, delivery: { queued: [...delivery.queued], skipped: delivery.skipped.map((skip) => ({ ...skip })) } };
  }

  // ------------------------------------------------------------------ the customer's link

  /** The quote a token opens: sent, approved or declined (a draft or a cancelled quote has no link). */
  async function openLink(token: string, executor: DbExecutor = db): Promise<QuoteRow> {
    const opened = await documentLinks.open(
      token,
      'quote',
      async (documentId) => {
        const row = await createQuoteRepository(executor).find(documentId);
        return row && ['sent', 'approved', 'declined'].includes(row.status) ? row.linkVersion : undefined;
      },
      executor,
    );
    const row = await createQuoteRepository(executor).find(opened.documentId);
    if (!row) throw linkRefused();
    return row;
  }

  async function publicView(executor: DbExecutor, row: QuoteRow): Promise<PublicQuoteResponse> {
    const repo = createQuoteRepository(executor);
    const [stored, customer] = await Promise.all([repo.options(row.id), repo.customer(row.customerId)]);
    const status = row.status as QuoteStatus;
    const shownStatus = isQuoteExpired(status, row.validUntil, today()) ? 'expired' : (status as 'sent' | 'approved' | 'declined');
    const customerBlock = customer ? customerParty(customer) : { name: '', addressLines: [] };
    const statusLabel = shownStatus === 'expired' ? 'Expired' : quoteStatusLabels[status];
    return {
      quoteNumber: row.quoteNumber ?? '',
      title: row.title,
      status: shownStatus,
      validUntil: row.validUntil,
      notes: row.notes,
      company: companyParty(company),
      customer: customerBlock,
      options: stored.map((entry) => {
        const option = toOption(entry);
        return {
          id: option.id,
          name: option.name,
          description: option.description,
          document: quoteOptionDocument({
            quoteNumber: row.quoteNumber,
            statusLabel,
            issuedOn: row.sentAt ? todayIn(timeZone, row.sentAt) : undefined,
            validUntil: row.validUntil,
            company: companyParty(company),
            customer: customerBlock,
            title: row.title,
            option,
            notes: row.notes,
          }),
        };
      }),
      approvedOptionId: row.approvedOptionId,
      approvedByName: row.approvedByName,
      approvedAt: iso(row.approvedAt),
      declinedAt: iso(row.declinedAt),
    };
  }

  return {
    async list(query: QuoteListQuery): Promise<QuoteListResponse> {
      const { rows, total, totalCapped } = await repository.list(query, today());
      return {
        quotes: rows.map((row) => ({
          id: row.id,
          quoteNumber: row.quoteNumber,
          status: row.status as QuoteStatus,
          expired: isQuoteExpired(row.status as QuoteStatus, row.validUntil, today()),
          title: row.title,
          customerId: row.customerId,
          customerName: row.customerName,
          optionCount: row.optionCount ?? 0,
          lowestTotalCents: row.lowest ?? 0,
          highestTotalCents: row.highest ?? 0,
          approvedTotalCents: row.approvedTotal ?? null,
          validUntil: row.validUntil,
          sentAt: iso(row.sentAt),
          createdAt: row.createdAt.toISOString(),
        })),
        page: query.page,
        pageSize: query.pageSize,
        total,
        totalCapped,
      };
    },

    detail: (id: string) => detailIn(db, id),

    async create(values: CreateValues, actor: AuditActor): Promise<QuoteDetailResponse> {
      const id = await withTransaction(db, async (tx) => {
        const repo = createQuoteRepository(tx);
        await checkSources(repo, values);
        const row = await repo.insert({
          customerId: values.customerId,
          workOrderId: values.workOrderId,
          estimateRequestId: values.estimateRequestId,
          aiLeadId: values.aiLeadId,
          title: values.title,
          notes: values.notes,
          validUntil: values.validUntil,
          status: 'draft',
          createdById: actor.id,
        });
        const rows = optionRows(values.options);
        await repo.replaceOptions(row.id, rows);
        await audit(tx, actor, row, 'created', { options: [null, rows.map((option) => `${option.name}: ${formatCents(option.totalCents)}`).join('; ')] });
        return row.id;
      });
      return detailIn(db, id);
    },

    async update(id: string, values: UpdateValues, actor: AuditActor): Promise<QuoteDetailResponse> {
      await withTransaction(db, async (tx) => {
        const row = await locked(tx, id);
        if (row.status !== 'draft') throw conflict(quoteMessages.notDraft);
        const repo = createQuoteRepository(tx);
        const before = await repo.options(row.id);
        const rows = optionRows(values.options);
        await repo.replaceOptions(row.id, rows);
        const updated = await repo.update(row.id, { title: values.title, notes: values.notes, validUntil: values.validUntil });
        const summary = (list: { name: string; totalCents: number }[]) => list.map((option) => `${option.name}: ${formatCents(option.totalCents)}`).join('; ');
        const changes: Record<string, [unknown, unknown]> = {};
        if (row.title !== updated.title) changes.title = [row.title, updated.title];
        if (row.validUntil !== updated.validUntil) changes.validUntil = [row.validUntil, updated.validUntil];
        if (row.notes !== updated.notes) changes.notes = [row.notes, updated.notes];
        if (summary(before) !== summary(rows)) changes.options = [summary(before), summary(rows)];
        await audit(tx, actor, updated, 'edited', changes);
      });
      return detailIn(db, id);
    },

    /** Sends a draft (numbering it), or sends a sent quote again (a new message and link). */
    async send(id: string, actor: AuditActor): Promise<QuoteSendResponse> {
      const delivery = await withTransaction(db, async (tx) => (await sendIn(tx, await locked(tx, id), actor)).delivery);
      options.onQueued?.();
      return { ...(await detailIn(db, id)), delivery };
    },

    /** Back to draft for changes: every link sent so far stops working; sending again sends the new version. */
    async revise(id: string, actor: AuditActor): Promise<QuoteDetailResponse> {
      await withTransaction(db, async (tx) => {
        const row = await locked(tx, id);
        if (row.status !== 'sent' && row.status !== 'declined') throw conflict(quoteMessages.notRevisable);
        const updated = await createQuoteRepository(tx).update(row.id, { status: 'draft', linkVersion: row.linkVersion + 1 });
        await audit(tx, actor, updated, 'revised', { status: [row.status, 'draft'] });
      });
      return detailIn(db, id);
    },

    async cancel(id: string, reason: string, actor: AuditActor): Promise<QuoteDetailResponse> {
      await withTransaction(db, async (tx) => {
        const row = await locked(tx, id);
        if (row.status === 'approved' || row.status === 'cancelled') throw conflict(quoteMessages.notCancellable);
        const updated = await createQuoteRepository(tx).update(row.id, { status: 'cancelled', linkVersion: row.linkVersion + 1 });
        await audit(tx, actor, updated, 'cancelled', { status: [row.status, 'cancelled'], ...(reason ? { reason: [null, reason] } : {}) });
      });
      return detailIn(db, id);
    },

    /** The signature drawn at approval (staff only). */
    async signature(id: string) {
      const row = await repository.find(idFrom(id));
      const missing = () => new AppError('NOT_FOUND', 'No signature for this quote');
      if (!row?.approvalSignatureKey) throw missing();
      const stored = await storage.get(row.approvalSignatureKey);
      if (!stored) throw missing();
      return { bytes: stored.bytes, contentType: 'image/png' };
    },

    /** The approved option's lines of the quote a work order came from (or was linked to), for its invoice. */
    async approvedLinesFor(executor: DbExecutor, workOrderId: string): Promise<{ quoteId: string; quoteNumber: string | null; lines: DocumentLineValues[] } | undefined> {
      const repo = createQuoteRepository(executor);
      const quote = await repo.approvedForWorkOrder(workOrderId);
      if (!quote?.approvedOptionId) return undefined;
      const option = (await repo.options(quote.id)).find((candidate) => candidate.id === quote.approvedOptionId);
      if (!option) return undefined;
      return { quoteId: quote.id, quoteNumber: quote.quoteNumber, lines: option.lines.map(documentLineValuesOf) };
    },

    // ---------------------------------------------------------------- public (the customer's link)

    async view(token: string): Promise<PublicQuoteResponse> {
      return publicView(db, await openLink(token));
    },

    /**
     * The customer approves an option: typed name (and a drawn signature when given), time and
     * client address recorded; the linked work order is updated (still open) or a new one is made
     * with the option's title; the office is notified. Approving the same option again answers the
     * page as it is (a double tap); any other answer to an answered quote is refused.
     */
    async approve(token: string, values: ApproveValues, clientAddress: string): Promise<PublicQuoteResponse> {
      const signature = values.signature ? await decodeSignature(values.signature) : undefined;
      let storedSignature: string | undefined;
      try {
        const result = await withTransaction(db, async (tx) => {
          const opened = await openLink(token, tx);
          const repo = createQuoteRepository(tx);
          const row = (await repo.lock(opened.id))!;
          if (row.status === 'approved' && row.approvedOptionId === values.optionId) return { row, created: false };
          if (row.status !== 'sent') throw conflict(quoteMessages.alreadyAnswered);
          if (isQuoteExpired('sent', row.validUntil, today())) throw conflict(quoteMessages.expired);
          const option = (await repo.options(row.id)).find((candidate) => candidate.id === values.optionId);
          if (!option) throw invalid(quoteMessages.optionNotFound, 'optionId');
          const actor: AuditActor = { id: null, name: `${values.name} (customer, quote link)` };
          if (signature) {
            storedSignature = `quote-signatures/${row.id}/${now().getTime()}-${randomBytes(4).toString('hex')}.png`;
            await storage.put(storedSignature, signature, 'image/png');
          }
          // The work order: the linked one while it is still open, else a new one.
          const workOrders = options.workOrderRepository(tx);
          const linked = row.workOrderId ? await repo.workOrder(row.workOrderId) : undefined;
          let workOrderId: string;
          let workOrderNumber: string;
          const optionText = `Approved quote ${row.quoteNumber}, option "${option.name}" (${formatCents(option.totalCents)}): ${option.lines.map((line) => line.name).join(', ')}`;
          if (linked && linked.status !== 'completed' && linked.status !== 'cancelled') {
            workOrderId = linked.id;
            workOrderNumber = linked.workOrderNumber;
            await recordAudit(tx, { actor, entityType: 'work_order', entityId: linked.id, entityLabel: linked.workOrderNumber, action: 'quote_approved', changes: { quote: [null, optionText] } });
          } else {
            const created = await workOrders.insert(
              newWorkOrder(
                row.customerId,
                {
                  title: row.title.slice(0, 200),
                  serviceType: serviceTypeOf(option.lines),
                  priority: 'normal',
                  serviceDate: today(),
                  timePreference: 'morning',
                  description: optionText.slice(0, 5000),
                  notes: '',
                  technicianId: null,
                  allowOverlap: false,
                  serviceAddress: linked?.serviceAddress ?? null,
                  serviceCity: linked?.serviceCity ?? null,
                  serviceState: linked?.serviceState ?? null,
                  serviceZip: linked?.serviceZip ?? null,
                },
                timeZone,
              ),
            );
            await recordWorkOrderChange(tx, actor, 'created', undefined, created);
            workOrderId = created.id;
            workOrderNumber = created.workOrderNumber;
          }
          const approved = await repo.update(row.id, {
            status: 'approved',
            approvedOptionId: option.id,
            approvedAt: now(),
            approvedByName: values.name,
            approvalSignatureKey: storedSignature ?? null,
            approvalIp: clientAddress,
            resultingWorkOrderId: workOrderId,
          });
          await audit(tx, actor, approved, 'approved', {
            status: ['sent', 'approved'],
            option: [null, `${option.name} (${formatCents(option.totalCents)})`],
            signedBy: [null, values.name],
            signature: [null, storedSignature ? 'signed on screen' : 'typed name'],
            clientAddress: [null, clientAddress],
            workOrder: [null, workOrderNumber],
          });
          const customer = await repo.customer(row.customerId);
          await notifications.insert(tx as Database, {
            type: notificationTypes.quoteAnswered,
            title: `Quote approved: ${row.quoteNumber}`,
            message: `${customer?.name ?? values.name} approved "${option.name}" (${formatCents(option.totalCents)}) on ${row.quoteNumber}. Work order ${workOrderNumber}.`,
            data: { link: `/admin/quotes/${row.id}`, quote_id: row.id, work_order_id: workOrderId },
          });
          return { row: approved, created: true };
        });
        if (!result.created && storedSignature) await storage.delete(storedSignature).catch(() => undefined);
        return publicView(db, result.row);
      } catch (error) {
        if (storedSignature) await storage.delete(storedSignature).catch(() => undefined);
        throw error;
      }
    },

    /** The customer declines (optionally saying why); the office is notified. Declining twice answers the page as it is. */
    async decline(token: string, values: DeclineValues, clientAddress: string): Promise<PublicQuoteResponse> {
      const row = await withTransaction(db, async (tx) => {
        const opened = await openLink(token, tx);
        const repo = createQuoteRepository(tx);
        const current = (await repo.lock(opened.id))!;
        if (current.status === 'declined') return current;
        if (current.status !== 'sent') throw conflict(quoteMessages.alreadyAnswered);
        const declined = await repo.update(current.id, { status: 'declined', declinedAt: now(), declineReason: values.reason || null });
        const customer = await repo.customer(current.customerId);
        const actor: AuditActor = { id: null, name: `${customer?.name ?? 'Customer'} (customer, quote link)` };
        await audit(tx, actor, declined, 'declined', { status: ['sent', 'declined'], clientAddress: [null, clientAddress], ...(values.reason ? { reason: [null, values.reason] } : {}) });
        await notifications.insert(tx as Database, {
          type: notificationTypes.quoteAnswered,
          title: `Quote declined: ${current.quoteNumber}`,
          message: `${customer?.name ?? 'The customer'} declined ${current.quoteNumber} (${current.title})${values.reason ? `: ${values.reason}` : '.'}`,
          data: { link: `/admin/quotes/${current.id}`, quote_id: current.id },
        });
        return declined;
      });
      return publicView(db, row);
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
