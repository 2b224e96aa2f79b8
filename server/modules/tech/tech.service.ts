import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { StaffUser } from '#shared/auth.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import type { InvoiceStatus, WorkOrderStatus } from '#shared/enums.ts';
import {
  techFollowUpNotificationType,
  techMessages,
  techOfflineDays,
  techPhotoUrl,
  techSignatureUrl,
  type TechActionBatchResponse,
  type TechActionResponse,
  type TechBatchResult,
  type TechBatchStop,
  type TechInvoice,
  type TechPaymentResponse,
  type TechPhoto,
  type TechVisit,
  type TechVisitsResponse,
  type techActionSchema,
  type techPaymentSchema,
  type techVisitsQuerySchema,
} from '#shared/tech.ts';
import { workOrderPlace } from '#shared/work-order-place.ts';
import type { ObjectStorage } from '#server/adapters/storage/index.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { decodeSignature } from '#server/lib/signature-png.ts';
import { diffFields, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { thumbnailKeyOf, type CustomerService, type UploadedFile } from '#server/modules/customers/index.ts';
import { canMarkEnRoute } from '#server/modules/messaging/index.ts';
import type { NotificationRepository } from '#server/modules/notifications/index.ts';
import { isSameVersion, recordWorkOrderChange, statusesAllowedTo, type WorkOrderRow } from '#server/modules/work-orders/index.ts';
import type { InvoiceService } from '#server/modules/invoices/index.ts';
import { createTechRepository, type InvoiceSummaryRow, type PhotoRow, type TechRepository } from './tech.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

type TechAction = z.output<typeof techActionSchema>;
type VisitsQuery = z.output<typeof techVisitsQuerySchema>;
type PaymentBody = z.output<typeof techPaymentSchema>;

const visitNotFound = () => new AppError('NOT_FOUND', techMessages.visitNotFound);
const photoNotFound = () => new AppError('NOT_FOUND', 'Photo not found');

/** The step's words in a refusal ("A completed job cannot be marked on site."). */
const stepWords: Record<TechAction['kind'], string> = {
  'en-route': 'en route',
  'on-site': 'on site',
  task: 'with a task done',
  inspection: 'with an inspection report',
  note: 'with a note',
  complete: 'complete',
};

/** A visit id from the address, lower-cased; anything else is the same 404 as another technician's visit. */
function visitKey(id: string): string {
  if (!isUuid(id)) throw visitNotFound();
  return id.toLowerCase();
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

function toTechPhoto(row: PhotoRow): TechPhoto {
  return {
    id: row.id,
    url: techPhotoUrl(row.id, 'display'),
    thumbnailUrl: techPhotoUrl(row.id, 'thumbnail'),
    workOrderId: row.workOrderId,
    createdAt: row.createdAt.toISOString(),
  };
}

function toTechInvoice(row: Pick<InvoiceSummaryRow, 'id' | 'invoiceNumber' | 'status' | 'totalCents' | 'paidCents' | 'dueOn'>): TechInvoice {
  return {
    id: row.id,
    // Issued invoices only (the query's filter): their number is set (invoices_number_when_issued_check).
    invoiceNumber: row.invoiceNumber ?? '',
    status: row.status as InvoiceStatus,
    totalCents: row.totalCents,
    paidCents: row.paidCents,
    balanceCents: row.totalCents - row.paidCents,
    dueOn: row.dueOn,
  };
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === '23505') return true;
  }
  return false;
}

async function inTurn(reads: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results;
}

export type TechServiceOptions = {
  db: Database;
  timeZone: string;
  storage: ObjectStorage;
  customers: CustomerService;
  notifications: NotificationRepository;
  /** Told after a commit that marked a visit en route or completed (the messaging runner's kick: "on my way"). */
  onWorkOrderMessaging: () => void;
  /** Payments on site follow the office's payment rule: the invoices module's (decision 025-a). */
  payments: Pick<InvoiceService, 'recordPayment'>;
  now?: () => Date;
};

/**
 * The technician app (issue 19, decision 022-a): a technician's visits and what they do on them.
 * Every read and write is scoped to the session's technician: another's visit is a 404, the same
 * answer as a visit that does not exist.
 */
export function createTechService(options: TechServiceOptions) {
  const { db, timeZone, storage, customers, notifications, onWorkOrderMessaging, payments } = options;
  const now = options.now ?? (() => new Date());
  const repository = createTechRepository(db);

  const technicianOf = (user: StaffUser): string => {
    // The session guard lets only linked technicians in; this is the second lock on the door.
    if (user.role !== 'technician' || !user.technicianId) throw new AppError('FORBIDDEN', techMessages.noTechnicianLinked);
    return user.technicianId;
  };
  const actorOf = (user: StaffUser): AuditActor => ({ id: user.id, name: user.name || user.email });

  /** The visits of these rows, each whole, in a bounded number of queries (one per part). */
  async function buildVisits(
    repo: TechRepository,
    rows: Awaited<ReturnType<TechRepository['visitRows']>>,
    options: { inTransaction?: boolean } = {},
  ): Promise<TechVisit[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.workOrder.id);
    const customerIds = [...new Set(rows.map((row) => row.customer.id))];
    const reads = [
      () => repo.tasksOf(ids),
      () => repo.latestInspectionsOf(ids),
      () => repo.equipmentOf(customerIds),
      () => repo.photosOf(customerIds),
      () => repo.notesOf(ids),
      () => repo.completionsOf(ids),
      () => repo.historyOf(ids),
      () => repo.invoicesOf(ids),
    ] as const;
    // On the pool the eight reads run together; a transaction's one connection takes them in turn.
    const results = options.inTransaction ? await inTurn(reads) : await Promise.all(reads.map((read) => read()));
    const [tasks, reports, equipmentRows, photos, notes, completions, history, invoiceRows] = results as [
      Awaited<ReturnType<TechRepository['tasksOf']>>,
      Awaited<ReturnType<TechRepository['latestInspectionsOf']>>,
      Awaited<ReturnType<TechRepository['equipmentOf']>>,
      Awaited<ReturnType<TechRepository['photosOf']>>,
      Awaited<ReturnType<TechRepository['notesOf']>>,
      Awaited<ReturnType<TechRepository['completionsOf']>>,
      Awaited<ReturnType<TechRepository['historyOf']>>,
      InvoiceSummaryRow[],
    ];
    const groupBy = <T, K>(items: T[], key: (item: T) => K) => {
      const map = new Map<K, T[]>();
      for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
      return map;
    };
    const tasksBy = groupBy(tasks, (task) => task.workOrderId);
    const reportBy = new Map(reports.map((report) => [report.workOrderId, report]));
    const equipmentBy = groupBy(equipmentRows, (item) => item.customerId);
    const photosBy = groupBy(photos, (photo) => photo.customerId);
    const notesBy = groupBy(notes, (note) => note.workOrderId);
    const completionBy = new Map(completions.map((completion) => [completion.workOrderId, completion]));
    const historyBy = groupBy(history, (item) => item.visitId);
    const invoicesBy = groupBy(invoiceRows, (invoice) => invoice.workOrderId);

    return rows.map(({ workOrder, customer }): TechVisit => {
      const place = workOrderPlace(workOrder, customer);
      const ownEquipment = equipmentBy.get(customer.id) ?? [];
      const completion = completionBy.get(workOrder.id);
      const report = reportBy.get(workOrder.id);
      return {
        id: workOrder.id,
        workOrderNumber: workOrder.workOrderNumber,
        title: workOrder.title,
        description: workOrder.description,
        serviceType: workOrder.serviceType as TechVisit['serviceType'],
        priority: workOrder.priority as TechVisit['priority'],
        status: workOrder.status as WorkOrderStatus,
        serviceDate: workOrder.serviceDate,
        timePreference: workOrder.timePreference as TechVisit['timePreference'],
        scheduledStartTime: workOrder.scheduledStartTime,
        scheduledEndTime: workOrder.scheduledEndTime,
        officeNotes: workOrder.notes,
        specialInstructions: workOrder.specialInstructions,
        enRouteAt: iso(workOrder.enRouteAt),
        onSiteAt: iso(workOrder.startedAt),
        completedAt: iso(workOrder.completedAt),
        updatedAt: workOrder.updatedAt.toISOString(),
        customer: { id: customer.id, name: customer.name, phone: customer.phone, email: customer.email },
        site: {
          address: place.address,
          city: place.city ?? '',
          state: place.state,
          zip: place.zip,
          // The pin is the customer's geocoded address: not the place of a job elsewhere.
          latitude: place.isServiceAddress ? null : customer.latitude,
          longitude: place.isServiceAddress ? null : customer.longitude,
        },
        equipmentId: workOrder.equipmentId,
        equipment: [
          ...ownEquipment.filter((item) => item.id === workOrder.equipmentId),
          ...ownEquipment.filter((item) => item.id !== workOrder.equipmentId),
        ].map(({ customerId: _customerId, ...item }) => item),
        tasks: (tasksBy.get(workOrder.id) ?? []).map((task) => ({ ...task, createdAt: task.createdAt.toISOString() })),
        inspectionReport: report ? { ...report, createdAt: report.createdAt.toISOString() } : null,
        notes: (notesBy.get(workOrder.id) ?? []).map((note) => ({ id: note.id, text: note.text, authorName: note.authorName, createdAt: note.createdAt.toISOString() })),
        photos: (photosBy.get(customer.id) ?? []).map(toTechPhoto),
        history: (historyBy.get(workOrder.id) ?? []).map((item) => ({
          id: item.id,
          workOrderNumber: item.workOrderNumber,
          title: item.title,
          serviceDate: item.serviceDate,
          status: item.status as WorkOrderStatus,
          summary: item.summary ?? null,
        })),
        completion: completion
          ? {
              summary: completion.summary,
              materials: completion.materials,
              signerName: completion.signerName,
              signatureUrl: completion.signatureKey ? techSignatureUrl(workOrder.id) : null,
              timeOnSiteMinutes: completion.timeOnSiteMinutes,
              followUpNote: completion.followUpNote,
              completedByName: completion.completedByName,
              completedAt: completion.completedAt.toISOString(),
            }
          : null,
        invoices: (invoicesBy.get(workOrder.id) ?? []).map(toTechInvoice),
      };
    });
  }

  async function visitIn(executor: DbExecutor, technicianId: string, id: string): Promise<TechVisit> {
    const repo = createTechRepository(executor);
    const [visit] = await buildVisits(repo, await repo.visitRows(technicianId, { id }), { inTransaction: executor !== db });
    if (!visit) throw visitNotFound();
    return visit;
  }

  const refused = (from: string, kind: TechAction['kind']) => new AppError('CONFLICT', techMessages.stepRefused(from, stepWords[kind]));

  /**
   * Applies one action to the locked work order (its status allowing it): the change, its
   * activity-log entry as the technician, and a new version. Answers the row after.
   */
  async function apply(tx: DbExecutor, repo: TechRepository, before: WorkOrderRow, action: TechAction, at: Date, user: StaffUser, signatureKey: string | null) {
    const actor = actorOf(user);
    const status = before.status as WorkOrderStatus;
    const closed = status === 'completed' || status === 'cancelled';
    // Every entry names the step's time on the device (the office's timeline shows it; decision 022-a, Office side).
    const takenAt = { takenAt: [null, at.toISOString()] as [null, string] };
    const logEntry = (action: string, changes: Parameters<typeof recordAudit>[1]['changes']) =>
      recordAudit(tx, { actor, entityType: 'work_order', entityId: before.id, entityLabel: before.workOrderNumber, action, changes: { ...changes, ...takenAt } });

    switch (action.kind) {
      case 'en-route': {
        // The office's en-route rule (messaging): the "on my way" message follows from en_route_at.
        if (!canMarkEnRoute(status)) throw refused(status, action.kind);
        const after = await repo.updateWorkOrder(before.id, { enRouteAt: at });
        await recordWorkOrderChange(tx, actor, 'en_route', before, after, takenAt);
        return after;
      }
      case 'on-site': {
        // pending or scheduled -> in progress (allowedTransitions): arriving starts the job.
        if (!statusesAllowedTo('in-progress').includes(status)) throw refused(status, action.kind);
        const after = await repo.updateWorkOrder(before.id, { status: 'in-progress', startedAt: at, actualStartTime: at });
        await recordWorkOrderChange(tx, actor, 'status_changed', before, after, takenAt);
        return after;
      }
      case 'task': {
        if (closed) throw refused(status, action.kind);
        if (!isUuid(action.taskId)) throw new AppError('NOT_FOUND', techMessages.taskNotFound);
        const task = await repo.taskOf(before.id, action.taskId.toLowerCase());
        if (!task) throw new AppError('NOT_FOUND', techMessages.taskNotFound);
        if (task.status !== action.status) {
          await repo.setTaskStatus(task.id, action.status);
          await logEntry('task_updated', { [`${task.taskName}: status`]: [task.status, action.status] });
        }
        return repo.updateWorkOrder(before.id, {});
      }
      case 'inspection': {
        if (closed) throw refused(status, action.kind);
        // As the office's form does: a new report, the latest one is the visit's.
        const report = await repo.insertInspection({ workOrderId: before.id, ...action.report, createdAt: at });
        await logEntry('inspection_added', diffFields(undefined, report, { omit: ['workOrderId', 'id', 'createdAt'] }));
        return repo.updateWorkOrder(before.id, {});
      }
      case 'note': {
        if (status === 'cancelled') throw refused(status, action.kind);
        await repo.insertNote({ workOrderId: before.id, authorStaffUserId: user.id, authorName: actor.name, text: action.text, createdAt: at });
        await logEntry('note_added', { note: [null, action.text] });
        return repo.updateWorkOrder(before.id, {});
      }
      case 'complete': {
        // in progress -> completed only (allowedTransitions): the app sends 'on site' first.
        if (!statusesAllowedTo('completed').includes(status)) throw refused(status, action.kind);
        const after = await repo.updateWorkOrder(before.id, { status: 'completed', completedAt: at, actualEndTime: at });
        const startedAt = before.startedAt ?? before.actualStartTime;
        const timeOnSiteMinutes = startedAt ? Math.max(0, Math.round((at.getTime() - startedAt.getTime()) / 60_000)) : null;
        await repo.insertCompletion({
          workOrderId: before.id,
          summary: action.summary,
          materials: action.materials,
          signerName: action.signerName,
          signatureKey,
          timeOnSiteMinutes,
          followUpNote: action.followUp?.note ?? null,
          completedByStaffUserId: user.id,
          completedByName: actor.name,
          completedAt: at,
        });
        await recordWorkOrderChange(tx, actor, 'status_changed', before, after, takenAt);
        await logEntry('visit_completed', {
          summary: [null, action.summary],
          ...(action.materials.length > 0 ? { materials: [null, action.materials.map((line) => `${line.quantity} × ${line.description}`)] } : {}),
          ...(action.signerName ? { signedBy: [null, action.signerName] } : {}),
          signature: [null, signatureKey ? 'signed on screen' : 'not signed'],
          ...(action.followUp ? { followUp: [null, action.followUp.note] } : {}),
        });
        if (action.followUp) {
          const customerName = (await repo.visitRows(user.technicianId!, { id: before.id }))[0]?.customer.name ?? '';
          await notifications.insert(tx as Database, {
            type: techFollowUpNotificationType,
            title: `Follow-up needed: ${before.workOrderNumber}`,
            message: `${actor.name} completed ${before.workOrderNumber}${customerName ? ` (${customerName})` : ''} and asked for a follow-up: ${action.followUp.note}`,
            data: {
              work_order_id: before.id,
              work_order_number: before.workOrderNumber,
              technician_id: user.technicianId,
              technician_name: actor.name,
              staff_user_id: user.id,
            },
          });
        }
        return after;
      }
    }
  }

  /**
   * One action in one transaction, the rules of both action routes: the work order locked and
   * checked to be this technician's (404), a replayed idempotency key answered without a change, a
   * stale base version refused with the current visit (409 with `current`), then the change, its
   * log entry, the applied key and a new version. `answerVisit` reads the whole visit in the same
   * transaction (the single route's answer); the batch reads it once at its end.
   */
  async function applyOne(
    user: StaffUser,
    key: string,
    action: TechAction,
    options: { answerVisit: boolean },
  ): Promise<{ applied: boolean; updatedAt: string; visit?: TechVisit }> {
    const technicianId = technicianOf(user);
    // The step's time is the device's, never later than the server's clock.
    const at = new Date(Math.min(new Date(action.takenAt).getTime(), now().getTime()));
    // The signature is checked before anything is locked (decoding takes a moment).
    const signature = action.kind === 'complete' && action.signature ? await decodeSignature(action.signature, techMessages.signatureInvalid) : undefined;
    let storedSignature: string | undefined;
    try {
      const result = await withTransaction(db, async (tx) => {
        const repo = createTechRepository(tx);
        const before = await repo.lockAssigned(technicianId, key);
        if (!before) throw visitNotFound();
        const answer = async (applied: boolean, updatedAt: Date) => ({
          applied,
          updatedAt: updatedAt.toISOString(),
          visit: options.answerVisit ? await visitIn(tx, technicianId, key) : undefined,
        });
        const done = await repo.findAction(action.idempotencyKey);
        if (done) {
          // The same key on another visit is not a replay of this one.
          if (done.workOrderId !== key) throw new AppError('CONFLICT', 'This action was already applied to another visit.');
          return answer(false, before.updatedAt);
        }
        if (!isSameVersion(before.updatedAt, action.baseUpdatedAt)) {
          throw new AppError('CONFLICT', techMessages.conflict, { current: await visitIn(tx, technicianId, key) });
        }
        if (signature) {
          storedSignature = `signatures/${key}/${at.getTime()}-${randomBytes(4).toString('hex')}.png`;
          await storage.put(storedSignature, signature, 'image/png');
        }
        const after = await apply(tx, repo, before, action, at, user, storedSignature ?? null);
        await repo.insertAction({ idempotencyKey: action.idempotencyKey, workOrderId: key, staffUserId: user.id, kind: action.kind, takenAt: at });
        return answer(true, after.updatedAt);
      });
      if (result.applied && (action.kind === 'en-route' || action.kind === 'complete')) onWorkOrderMessaging();
      if (!result.applied && storedSignature) await storage.delete(storedSignature).catch(() => undefined);
      return result;
    } catch (error) {
      if (storedSignature) await storage.delete(storedSignature).catch(() => undefined);
      // The same key sent for two visits at the same moment: the key's primary key lets one in.
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This action was already applied to another visit.');
      throw error;
    }
  }

  return {
    async session(user: StaffUser) {
      const technician = await repository.technician(technicianOf(user));
      if (!technician) throw new AppError('FORBIDDEN', techMessages.noTechnicianLinked);
      return { user: { id: user.id, email: user.email, name: user.name, role: 'technician' as const }, technician };
    },

    /** The technician's visits of `days` days from `from` (today in the company's time zone by default). */
    async visits(user: StaffUser, query: VisitsQuery): Promise<TechVisitsResponse> {
      const technicianId = technicianOf(user);
      const technician = await repository.technician(technicianId);
      if (!technician) throw new AppError('FORBIDDEN', techMessages.noTechnicianLinked);
      const syncedAt = now();
      const from = query.from ?? todayIn(timeZone, syncedAt);
      const days = query.days ?? techOfflineDays;
      const rows = await repository.visitRows(technicianId, { from, to: addDays(from, days - 1) });
      return { technician, from, days, visits: await buildVisits(repository, rows), syncedAt: syncedAt.toISOString() };
    },

    async visit(user: StaffUser, id: string): Promise<TechVisit> {
      return visitIn(db, technicianOf(user), visitKey(id));
    },

    /**
     * One action from the app, in one transaction (applyOne): the work order locked and checked to
     * be this technician's (404), a replayed idempotency key answered without a change, a stale base
     * version refused with the current visit (409), then the change, its log entry and a new version.
     * The answer is the visit as that transaction left it.
     */
    async act(user: StaffUser, id: string, action: TechAction): Promise<TechActionResponse> {
      const { visit, applied } = await applyOne(user, visitKey(id), action, { answerVisit: true });
      return { visit: visit!, applied };
    },

    /**
     * A run of one visit's queued actions (decision 022-d): each applied by applyOne, as the single
     * route does, in its own transaction and in order, so what was applied stays applied whatever
     * follows. The first refusal stops the batch: a stale version (409 with the office's version) is
     * a conflict, anything else a refusal, and the actions after it are not looked at. The device's
     * chain is followed: an action sent on the same version as an earlier action of the batch
     * stands on the version that one produced, as the app would have rebased it after its answer.
     * Another technician's visit (or none) is the same 404 as the single route's; a server failure
     * fails the request (the device sends the batch again: what was applied replays).
     */
    async actBatch(user: StaffUser, id: string, actions: TechAction[]): Promise<TechActionBatchResponse> {
      const technicianId = technicianOf(user);
      const key = visitKey(id);
      const results: TechBatchResult[] = [];
      let stopped: TechBatchStop | null = null;
      let current: TechVisit | undefined;
      /** A version the device sent (ms) -> the version it now stands for, after this batch's actions. */
      const chain = new Map<number, string>();
      for (const action of actions) {
        const sent = Date.parse(action.baseUpdatedAt);
        const base = chain.get(sent) ?? action.baseUpdatedAt;
        try {
          const { applied, updatedAt } = await applyOne(user, key, { ...action, baseUpdatedAt: base }, { answerVisit: false });
          results.push({ idempotencyKey: action.idempotencyKey, applied, updatedAt });
          // The app's rule (sync.ts): what stood on the version this action was sent on now stands on the answer's.
          const baseMs = Date.parse(base);
          for (const [from, to] of chain) if (Date.parse(to) === baseMs) chain.set(from, updatedAt);
          chain.set(sent, updatedAt);
          chain.set(baseMs, updatedAt);
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          // Nothing applied yet and the visit is not this technician's: the single route's 404, for the whole request.
          if (results.length === 0 && error.code === 'NOT_FOUND' && error.message === techMessages.visitNotFound) throw error;
          const office = (error.details as { current?: TechVisit } | undefined)?.current;
          if (office) current = office;
          stopped = { idempotencyKey: action.idempotencyKey, reason: office ? 'conflict' : 'refused', status: error.status, code: error.code, message: error.message };
          break;
        }
      }
      if (!current) current = await visitIn(db, technicianId, key).catch((error: unknown) => (error instanceof AppError && error.code === 'NOT_FOUND' ? undefined : Promise.reject(error)));
      return { results, stopped, visit: current ?? null };
    },

    /**
     * Money taken on site (decision 025-a): a payment on an issued invoice of the visit's work order,
     * by the invoices' rule (the invoice locked, never above the balance, one payment per key), in
     * one transaction with the checks that the visit is this technician's and the invoice is the
     * visit's (both 404 otherwise, the same answer as another technician's visit), and an entry in
     * the work order's history. The invoice's entry names the technician. The payment's date is the
     * day it was taken (company time zone), not the day it synced. The visit's version does not move.
     */
    async recordPayment(user: StaffUser, id: string, body: PaymentBody): Promise<TechPaymentResponse & { status: 200 | 201 }> {
      const technicianId = technicianOf(user);
      const key = visitKey(id);
      const actor = actorOf(user);
      const at = new Date(Math.min(Date.parse(body.takenAt), now().getTime()));
      // Another technician's visit is refused before anything of the invoice is looked at (and again in the transaction).
      if (!(await repository.assignedWorkOrder(technicianId, key))) throw visitNotFound();
      let workOrderNumber = '';
      const { payment, applied } = await payments.recordPayment(
        body.invoiceId,
        {
          method: body.method,
          amountCents: body.amountCents,
          receivedOn: todayIn(timeZone, at),
          reference: body.reference,
          note: body.note,
          idempotencyKey: body.idempotencyKey.toLowerCase(),
        },
        actor,
        {
          check: async (executor, invoice) => {
            // The visit first: another technician's learns nothing of its invoices.
            const workOrder = await createTechRepository(executor).assignedWorkOrder(technicianId, key);
            if (!workOrder) throw visitNotFound();
            if (invoice.workOrderId !== key) throw new AppError('NOT_FOUND', techMessages.invoiceNotOnVisit);
            workOrderNumber = workOrder.workOrderNumber;
          },
          audit: { takenAt: [null, at.toISOString()], source: [null, 'technician app'] },
          recorded: async (tx, recorded, invoice) => {
            await recordAudit(tx, {
              actor,
              entityType: 'work_order',
              entityId: key,
              entityLabel: workOrderNumber,
              action: 'payment_collected',
              changes: {
                invoice: [null, invoice.invoiceNumber],
                method: [null, recorded.method],
                amountCents: [null, recorded.amountCents],
                ...(recorded.reference ? { reference: [null, recorded.reference] } : {}),
                takenAt: [null, at.toISOString()],
              },
            });
          },
        },
      );
      return {
        status: applied ? 201 : 200,
        applied,
        payment: {
          id: payment.id,
          invoiceId: body.invoiceId.toLowerCase(),
          method: payment.method,
          amountCents: payment.amountCents,
          receivedOn: payment.receivedOn,
          reference: payment.reference,
        },
        visit: await visitIn(db, technicianId, key),
      };
    },

    /**
     * Photos from the app for a visit: the customer's photos, linked to the visit, through the photo
     * pipeline. The upload key makes a replay answer the photos it stored, storing nothing new.
     */
    async addPhotos(user: StaffUser, id: string, idempotencyKey: string, files: AsyncIterable<UploadedFile>): Promise<{ photos: TechPhoto[]; replayed: boolean }> {
      const technicianId = technicianOf(user);
      const key = visitKey(id);
      const uploadKey = idempotencyKey.toLowerCase();
      const [row] = await repository.visitRows(technicianId, { id: key });
      if (!row) throw visitNotFound();
      const replay = async () => {
        const stored = await repository.photosByKey(uploadKey);
        if (stored.length === 0) return undefined;
        // A key of another visit's upload reveals nothing about it.
        if (stored.some((photo) => photo.workOrderId !== key)) throw visitNotFound();
        return { photos: stored.map(toTechPhoto), replayed: true };
      };
      const earlier = await replay();
      if (earlier) return earlier;
      try {
        const rows = await customers.addPhotoRows(row.customer.id, files, actorOf(user), { workOrderId: key, workOrderNumber: row.workOrder.workOrderNumber, idempotencyKey: uploadKey });
        return { photos: rows.map(toTechPhoto), replayed: false };
      } catch (error) {
        // The same upload sent twice at once: the unique key lets one in; the other answers its photos.
        if (isUniqueViolation(error)) {
          const raced = await replay();
          if (raced) return raced;
        }
        throw error;
      }
    },

    /** A photo of a customer with a visit assigned to this technician; 404 for any other. */
    async photoFile(user: StaffUser, photoId: string, variant: 'display' | 'thumbnail') {
      const technicianId = technicianOf(user);
      if (!isUuid(photoId)) throw photoNotFound();
      const photo = await repository.photoForTechnician(technicianId, photoId.toLowerCase());
      if (!photo) throw photoNotFound();
      const stored = await storage.open(variant === 'display' ? photo.objectKey : thumbnailKeyOf(photo.objectKey));
      if (!stored) throw photoNotFound();
      return { stream: stored.stream, size: stored.size, contentType: photo.contentType };
    },

    /** The customer's signature of a completed visit: the assigned technician's (or, with no user, the office's). */
    async signature(user: StaffUser | 'office', id: string) {
      const key = visitKey(id);
      const signatureKey = await repository.signatureKey(key, user === 'office' ? undefined : technicianOf(user));
      const notFound = () => new AppError('NOT_FOUND', 'No signature for this visit');
      if (!signatureKey) throw notFound();
      const stored = await storage.get(signatureKey);
      if (!stored) throw notFound();
      return { bytes: stored.bytes, contentType: 'image/png' };
    },
  };
}

export type TechService = ReturnType<typeof createTechService>;
