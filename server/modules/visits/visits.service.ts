import { timeOfDay, type BookingSettings, type OpenWindowsResponse } from '#shared/booking.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { addDays } from '#shared/dates.ts';
import type { WorkOrderServiceType } from '#shared/enums.ts';
import { firstNameOf } from '#shared/messaging.ts';
import { notificationTypes } from '#shared/notifications.ts';
import { visitMessages, visitPreparation, type VisitPage, type VisitReschedule } from '#shared/visit.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { recordAudit, systemActors } from '#server/modules/audit/index.ts';
import { readBookingSettings, type AvailabilityService } from '#server/modules/availability/index.ts';
import { invalidLinkMessage, type DocumentLinkService } from '#server/modules/document-links/index.ts';
import { durationHours, sqlLocalTimestamp } from '#server/modules/work-orders/index.ts';
import { createVisitRepository, type VisitRow } from './visits.repository.ts';

const serviceLabels: Record<string, string> = { repair: 'Repair visit', maintenance: 'Maintenance visit', inspection: 'Inspection', installation: 'Installation', ductwork: 'Ductwork visit' };
/** A visit's link opens for this long after the visit's day (and from when it is made). */
const daysAfterVisit = 30;
const hhmm = (time: string | null) => (time === null ? null : time.slice(0, 5));

/**
 * The customer's visit link (issue 21, decision 027-a): a document link of type 'visit' to a work
 * order. The page shows the visit; the customer can move it to another open window or cancel it up
 * to the cut-off (Settings -> Online booking). Every change is audited, tells staff, and flows to
 * the calendar (the table's change feed) and the customer (messaging plans from the work order).
 */
export function createVisitService(options: {
  db: Database;
  documentLinks: DocumentLinkService;
  availability: AvailabilityService;
  company: CompanyProfile;
  timeZone: string;
  now?: () => Date;
}) {
  const { db, documentLinks, availability, company, timeZone } = options;
  const now = options.now ?? (() => new Date());

  /** The work order a token opens, or the one 404 every bad link gets. */
  async function opened(token: string, executor: DbExecutor = db): Promise<string> {
    const link = await documentLinks.open(token, 'visit', async (id) => ((await createVisitRepository(executor).exists(id)) ? 1 : undefined), executor);
    return link.documentId;
  }

  /** The page of a visit under the company's booking rules (read by the caller: in its transaction when it has one). */
  function pageOf(row: VisitRow, settings: BookingSettings): VisitPage {
    const start = row.scheduledStartTime ? hhmm(row.scheduledStartTime)! : null;
    // The promised window while the visit's start is still inside it; after staff moved it, its own times.
    const promised = row.arrivalWindowStart && row.arrivalWindowEnd && start && hhmm(row.arrivalWindowStart)! <= start && start < hhmm(row.arrivalWindowEnd)!;
    const window = promised ? { start: hhmm(row.arrivalWindowStart)!, end: hhmm(row.arrivalWindowEnd)! } : start && row.scheduledEndTime ? { start, end: hhmm(row.scheduledEndTime)! } : null;
    const until = row.scheduledDate ? new Date(row.scheduledDate.getTime() - settings.cancelCutoffHours * 3_600_000) : null;
    const canChange = row.status === 'scheduled' && until !== null && now() < until;
    const serviceRules = settings.serviceTypes[row.serviceType as WorkOrderServiceType];
    return {
      workOrderNumber: row.workOrderNumber,
      status: row.status as VisitPage['status'],
      serviceLabel: serviceLabels[row.serviceType] ?? 'Service visit',
      date: row.scheduledStartTime ? row.serviceDate : null,
      window,
      address: [row.serviceAddress ?? row.customerAddress, row.serviceAddress ? null : row.customerCity].filter(Boolean).join(', '),
      technicianFirstName: row.technicianName ? firstNameOf(row.technicianName) : null,
      prepare: visitPreparation[row.serviceType] ?? [],
      canChange,
      changeableUntil: until ? until.toISOString() : null,
      canReschedule: canChange && settings.onlineBookingEnabled && Boolean(serviceRules?.bookableOnline) && zipOf(row) !== null,
      phone: company.phone,
    };
  }

  const zipOf = (row: VisitRow) => row.serviceZip ?? row.customerZip;

  /** Locks the visit and checks it can still be changed here; answers its row. */
  async function changeable(tx: DbExecutor, id: string): Promise<VisitRow> {
    const row = await createVisitRepository(tx).find(id, { forUpdate: true });
    if (!row) throw new AppError('NOT_FOUND', invalidLinkMessage);
    // Read in the transaction: the embedded database has one connection, held by it.
    const settings = await readBookingSettings(tx);
    const page = pageOf(row, settings);
    if (page.canChange) return row;
    if (row.status === 'scheduled' && page.changeableUntil) {
      throw new AppError('CONFLICT', visitMessages.pastCutoff(settings.cancelCutoffHours, company.phone));
    }
    throw new AppError('CONFLICT', visitMessages.notChangeable(company.phone));
  }

  return {
    /** Makes a visit's link in the caller's transaction: it opens until 30 days after the visit's day. */
    async createLink(executor: DbExecutor, workOrderId: string, visitDate: string): Promise<string> {
      const days = Math.max(1, Math.ceil((Date.parse(`${addDays(visitDate, daysAfterVisit)}T00:00:00Z`) - now().getTime()) / 86_400_000));
      const { token } = await documentLinks.create(executor, { documentType: 'visit', documentId: workOrderId, linkVersion: 1, validDays: Math.min(days, 366) });
      return token;
    },

    async read(token: string): Promise<VisitPage> {
      const id = await opened(token);
      const row = await createVisitRepository(db).find(id);
      if (!row) throw new AppError('NOT_FOUND', invalidLinkMessage);
      return pageOf(row, await availability.bookingSettings());
    },

    /** The open windows to move the visit to: its service type at its ZIP code. */
    async windows(token: string): Promise<OpenWindowsResponse> {
      const id = await opened(token);
      const row = await createVisitRepository(db).find(id);
      if (!row) throw new AppError('NOT_FOUND', invalidLinkMessage);
      const zip = zipOf(row);
      if (!pageOf(row, await availability.bookingSettings()).canReschedule || !zip) return { status: 'not_online' };
      return availability.openWindows({ serviceType: row.serviceType as WorkOrderServiceType, zip });
    },

    /**
     * Moves the visit to an open window, in one transaction under the visit's row lock and the
     * technicians' locks (its own visit does not count against it). A window taken meanwhile is a
     * 409 with the open windows now.
     */
    async reschedule(token: string, values: VisitReschedule): Promise<VisitPage> {
      const id = await opened(token);
      const outcome = await withTransaction(db, async (tx) => {
        const row = await changeable(tx, id);
        const zip = zipOf(row);
        const claim = zip
          ? await availability.claimWindow(tx, { serviceType: row.serviceType as WorkOrderServiceType, date: values.date, window: { start: values.start, end: values.end }, zip, exceptWorkOrderId: id })
          : undefined;
        if (!claim) return { taken: true as const };
        const startTime = timeOfDay(claim.start);
        const endTime = timeOfDay(claim.end);
        const visits = createVisitRepository(tx);
        await visits.move(id, {
          technicianId: claim.technicianId,
          serviceDate: values.date,
          scheduledDate: sqlLocalTimestamp(values.date, startTime, timeZone),
          startTime,
          endTime,
          windowStart: values.start,
          windowEnd: values.end,
          estimatedDuration: durationHours(startTime, endTime),
        });
        await recordAudit(tx, {
          actor: systemActors.customerLink,
          entityType: 'work_order',
          entityId: id,
          entityLabel: row.workOrderNumber,
          action: 'rescheduled',
          changes: {
            serviceDate: [row.serviceDate, values.date],
            scheduledStartTime: [hhmm(row.scheduledStartTime), startTime],
            scheduledEndTime: [hhmm(row.scheduledEndTime), endTime],
          },
        });
        await visits.notify({
          type: notificationTypes.visitChanged,
          title: `Rescheduled by the customer: ${row.workOrderNumber}`,
          message: `The customer moved ${row.workOrderNumber} to ${values.date}, arriving ${values.start}-${values.end}.`,
          data: { work_order_id: id, work_order_number: row.workOrderNumber, link: `/admin/workorders/${id}` },
        });
        return { taken: false as const };
      });
      if (outcome.taken) {
        const open = await this.windows(token);
        throw new AppError('CONFLICT', 'Sorry, that time was just taken. Here are the open times now: please choose another.', { windows: open.status === 'open' ? open.windows : [] });
      }
      return this.read(token);
    },

    /** Cancels the visit up to the cut-off. */
    async cancel(token: string): Promise<VisitPage> {
      const id = await opened(token);
      await withTransaction(db, async (tx) => {
        const row = await changeable(tx, id);
        const visits = createVisitRepository(tx);
        await visits.cancel(id);
        await recordAudit(tx, {
          actor: systemActors.customerLink,
          entityType: 'work_order',
          entityId: id,
          entityLabel: row.workOrderNumber,
          action: 'status_changed',
          changes: { status: [row.status, 'cancelled'] },
        });
        await visits.notify({
          type: notificationTypes.visitChanged,
          title: `Cancelled by the customer: ${row.workOrderNumber}`,
          message: `The customer cancelled ${row.workOrderNumber} (${row.serviceDate}) from their visit link.`,
          data: { work_order_id: id, work_order_number: row.workOrderNumber, link: `/admin/workorders/${id}` },
        });
      });
      return this.read(token);
    },
  };
}

export type VisitService = ReturnType<typeof createVisitService>;
