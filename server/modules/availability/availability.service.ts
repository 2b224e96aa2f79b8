import {
  bookingMessages,
  defaultBookingSettings,
  minutesOfDay,
  timeOfDay,
  type OpenWindowsQuery,
  type OpenWindowsResponse,
  type BookingSettings,
  type BookingSettingsPage,
  type TechnicianBooking,
  type TimeOff,
  type TimeOffBody,
  type technicianAvailabilitySchema,
} from '#shared/booking.ts';
import type { WorkOrderServiceType } from '#shared/enums.ts';
import { addDays, todayIn } from '#shared/dates.ts';
import type { z } from 'zod';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { isUuid } from '#server/lib/uuid.ts';
import { createSnapshotCache } from '#server/db/snapshot-cache.ts';
import { diffFields, hasChanges, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { earliestArrival, localMoment, openWindows, type TechnicianAvailability, type WindowCandidate } from './slots.ts';
import { createAvailabilityRepository, type BookingSettingsRow, type TechnicianAvailabilityRow, type TimeOffRow } from './availability.repository.ts';

const settingsFields = ['onlineBookingEnabled', 'arrivalWindows', 'travelBufferMinutes', 'serviceAreaZips', 'cancelCutoffHours', 'serviceTypes'] as const;
const technicianNotFound = () => new AppError('NOT_FOUND', bookingMessages.technicianNotFound);

function toSettings(row: BookingSettingsRow | undefined): { settings: BookingSettings; updatedAt: string | null } {
  if (!row) return { settings: structuredClone(defaultBookingSettings), updatedAt: null };
  return {
    settings: {
      onlineBookingEnabled: row.onlineBookingEnabled,
      arrivalWindows: row.arrivalWindows,
      travelBufferMinutes: row.travelBufferMinutes,
      serviceAreaZips: row.serviceAreaZips,
      cancelCutoffHours: row.cancelCutoffHours,
      // A service type added after the settings were saved gets its default rules.
      serviceTypes: { ...defaultBookingSettings.serviceTypes, ...row.serviceTypes },
    },
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** "08:00:00" (PostgreSQL's time) → "08:00". */
const hhmm = (time: string | null) => (time === null ? null : time.slice(0, 5));

function toTimeOff(row: TimeOffRow): TimeOff {
  return { id: row.id, technicianId: row.technicianId, startsOn: row.startsOn, endsOn: row.endsOn, startTime: hhmm(row.startTime), endTime: hhmm(row.endTime), reason: row.reason };
}

/** "2026-12-24", "2026-12-24 to 2026-12-31", "2026-12-02 13:00-17:00": how the activity log shows time off. */
const timeOffLabel = (entry: TimeOff) =>
  `${entry.startsOn}${entry.endsOn === entry.startsOn ? '' : ` to ${entry.endsOn}`}${entry.startTime ? ` ${entry.startTime}-${entry.endTime}` : ''}`;

function toTechnician(row: TechnicianAvailabilityRow, timeOff: TimeOffRow[]): TechnicianBooking {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    workingHours: row.workingHours,
    serviceTypes: row.serviceTypes as WorkOrderServiceType[],
    timeOff: timeOff.filter((entry) => entry.technicianId === row.id).map(toTimeOff),
  };
}

const toMinutes = (range: { start: string; end: string }) => ({ start: minutesOfDay(range.start), end: minutesOfDay(range.end) });

/** Time off as the rule reads it: one entry per day, whole or part. */
function expandTimeOff(rows: TimeOffRow[]): TechnicianAvailability['timeOff'] {
  return rows.flatMap((row) => {
    if (row.startTime !== null && row.endTime !== null) return [{ date: row.startsOn, range: toMinutes({ start: row.startTime, end: row.endTime }) }];
    const days: { date: string }[] = [];
    for (let date = row.startsOn; date <= row.endsOn; date = addDays(date, 1)) days.push({ date });
    return days;
  });
}

/** Reads the settings as booking needs them: the defaults while none were saved. */
export async function readBookingSettings(db: DbExecutor): Promise<BookingSettings> {
  return toSettings(await createAvailabilityRepository(db).readSettings()).settings;
}

/**
 * Settings -> Online booking (issue 21, decision 026-c): the company's rules and each technician's
 * hours, service types and time off. Every change audited.
 */
export function createAvailabilityService(options: { db: Database; timeZone: string; now?: () => Date }) {
  const { db, timeZone, now = () => new Date() } = options;
  const repository = createAvailabilityRepository(db);
  const windowsCache = createSnapshotCache<OpenWindowsResponse>(db, { maxEntries: 64 });

  /** The rule's view of the technicians who do a service type, with their time off and visits of those dates. */
  async function availabilityOf(from: DbExecutor, serviceType: WorkOrderServiceType, firstDate: string, lastDate: string, exceptWorkOrderId?: string): Promise<TechnicianAvailability[]> {
    const reader = createAvailabilityRepository(from);
    const [technicianRows, timeOff, visits] = [await reader.listTechnicians(), await reader.timeOffBetween(firstDate, lastDate), await reader.visitsBetween(firstDate, lastDate, exceptWorkOrderId)];
    return technicianRows
      .filter((row) => row.active && row.serviceTypes.includes(serviceType))
      .map((row) => ({
        id: row.id,
        serviceTypes: row.serviceTypes,
        weeklyHours: Object.fromEntries(Object.entries(row.workingHours).map(([day, ranges]) => [day, ranges.map(toMinutes)])),
        timeOff: expandTimeOff(timeOff.filter((entry) => entry.technicianId === row.id)),
        visits: visits.filter((visit) => visit.technicianId === row.id).map((visit) => ({ date: visit.date, ...toMinutes({ start: visit.startTime, end: visit.endTime }) })),
      }));
  }

  /** The rule's settings for a service type now: its length, the buffer, the windows, now plus its lead time and today plus its horizon. */
  function slotRules(settings: BookingSettings, serviceType: WorkOrderServiceType) {
    const rules = settings.serviceTypes[serviceType];
    const instant = now();
    return {
      serviceType,
      durationMinutes: rules.durationMinutes,
      bufferMinutes: settings.travelBufferMinutes,
      windows: settings.arrivalWindows.map(toMinutes),
      earliest: localMoment(new Date(instant.getTime() + rules.leadTimeHours * 3_600_000), timeZone),
      lastDate: addDays(todayIn(timeZone, instant), rules.horizonDays),
    };
  }

  /** The open windows as computed from the stored rows (`openWindows` keeps them per snapshot and minute). */
  async function computeOpenWindows(query: OpenWindowsQuery): Promise<OpenWindowsResponse> {
    const settings = toSettings(await repository.readSettings()).settings;
    if (!settings.onlineBookingEnabled || !settings.serviceTypes[query.serviceType].bookableOnline) return { status: 'not_online' };
    if (!settings.serviceAreaZips.includes(query.zip)) return { status: 'outside_area' };
    const slot = slotRules(settings, query.serviceType);
    if (slot.earliest.date > slot.lastDate) return { status: 'open', windows: [] };
    const open = openWindows(await availabilityOf(db, query.serviceType, slot.earliest.date, slot.lastDate), slot);
      return { status: 'open', windows: open.map((entry) => ({ date: entry.date, start: timeOfDay(entry.window.start), end: timeOfDay(entry.window.end) })) };
  }

  return {
    /**
     * Claims an arrival window for a booking inside the caller's transaction (issue 21): locks the
     * technicians who do the service type (their rows, in id order, the lock calendar changes take:
     * decision 015), reads that day's visits and time off inside the transaction, and answers the
     * technician and times of the earliest arrival the window still allows (the least busy
     * technician first when several can), or undefined when it is not open any more. A visit being
     * moved (`exceptWorkOrderId`) does not count against its own new time.
     */
    async claimWindow(
      tx: DbExecutor,
      request: { serviceType: WorkOrderServiceType; date: string; window: { start: string; end: string }; zip: string; exceptWorkOrderId?: string },
    ): Promise<WindowCandidate | undefined> {
      const settings = toSettings(await createAvailabilityRepository(tx).readSettings()).settings;
      if (!settings.onlineBookingEnabled || !settings.serviceTypes[request.serviceType].bookableOnline) return undefined;
      if (!settings.serviceAreaZips.includes(request.zip)) return undefined;
      const window = toMinutes(request.window);
      if (!settings.arrivalWindows.some((offered) => minutesOfDay(offered.start) === window.start && minutesOfDay(offered.end) === window.end)) return undefined;
      const rules = slotRules(settings, request.serviceType);
      if (request.date < rules.earliest.date || request.date > rules.lastDate) return undefined;
      const qualified = (await createAvailabilityRepository(tx).listTechnicians()).filter((row) => row.active && row.serviceTypes.includes(request.serviceType));
      await createAvailabilityRepository(tx).lockTechnicians(qualified.map((row) => row.id));
      const technicians = await availabilityOf(tx, request.serviceType, request.date, request.date, request.exceptWorkOrderId);
      const candidates = technicians.flatMap((technician) => {
        const candidate = earliestArrival(technician, request.date, window, rules);
        return candidate ? [{ candidate, busy: technician.visits.length }] : [];
      });
      candidates.sort((a, b) => a.candidate.start - b.candidate.start || a.busy - b.busy || a.candidate.technicianId.localeCompare(b.candidate.technicianId));
      return candidates[0]?.candidate;
    },

    /**
     * The open arrival windows for a service type at a ZIP code (issue 21): from now plus the
     * type's lead time to today plus its horizon, through the technicians who do it.
     */
    async openWindows(query: OpenWindowsQuery): Promise<OpenWindowsResponse> {
      // The same answer for every visitor asking the same in the same minute until a commit (decision 013).
      return windowsCache.get(JSON.stringify([query.serviceType, query.zip, localMoment(now(), timeZone)]), () => computeOpenWindows(query));
    },

    /** The company's booking rules now (the defaults while none were saved). */
    bookingSettings: async (): Promise<BookingSettings> => toSettings(await repository.readSettings()).settings,

    /** The same computed afresh, without the kept answers (the benchmark's baseline). */
    computeOpenWindows,

    async readPage(): Promise<BookingSettingsPage> {
      const [settings, technicianRows, timeOff] = [await repository.readSettings(), await repository.listTechnicians(), await repository.timeOffFrom(todayIn(timeZone, now()))];
      return { ...toSettings(settings), technicians: technicianRows.map((row) => toTechnician(row, timeOff)) };
    },

    async saveSettings(values: BookingSettings, actor: AuditActor): Promise<{ settings: BookingSettings; updatedAt: string | null }> {
      return withTransaction(db, async (tx) => {
        const settings = createAvailabilityRepository(tx);
        const before = toSettings(await settings.lockSettings()).settings;
        const changes = diffFields(before, values, { only: [...settingsFields] });
        if (!hasChanges(changes)) return toSettings(await settings.readSettings());
        const row = await settings.saveSettings(values);
        await recordAudit(tx, { actor, entityType: 'settings', entityId: 'booking', entityLabel: 'Online booking', action: 'updated', changes });
        return toSettings(row);
      });
    },

    async saveTechnician(id: string, values: z.output<typeof technicianAvailabilitySchema>, actor: AuditActor): Promise<TechnicianBooking> {
      if (!isUuid(id)) throw technicianNotFound();
      return withTransaction(db, async (tx) => {
        const technicians = createAvailabilityRepository(tx);
        const before = await technicians.lockTechnician(id);
        if (!before) throw technicianNotFound();
        const workingHours = Object.fromEntries(Object.entries(values.workingHours).filter(([, ranges]) => ranges && ranges.length > 0)) as Record<string, { start: string; end: string }[]>;
        const after = { workingHours, serviceTypes: values.serviceTypes };
        const changes = diffFields({ workingHours: before.workingHours, serviceTypes: before.serviceTypes }, after);
        const row = hasChanges(changes) ? await technicians.updateTechnician(id, after) : before;
        if (hasChanges(changes)) {
          await recordAudit(tx, { actor, entityType: 'technician', entityId: id, entityLabel: before.name, action: 'availability_updated', changes });
        }
        return toTechnician(row, await technicians.timeOffFrom(todayIn(timeZone, now()), id));
      });
    },

    async addTimeOff(technicianId: string, body: TimeOffBody, actor: AuditActor): Promise<TimeOff> {
      if (!isUuid(technicianId)) throw technicianNotFound();
      return withTransaction(db, async (tx) => {
        const technicians = createAvailabilityRepository(tx);
        const technician = await technicians.lockTechnician(technicianId);
        if (!technician) throw technicianNotFound();
        const row = await technicians.insertTimeOff({ technicianId, ...body });
        const timeOff = toTimeOff(row);
        await recordAudit(tx, {
          actor,
          entityType: 'technician',
          entityId: technicianId,
          entityLabel: technician.name,
          action: 'time_off_added',
          changes: { timeOff: [null, timeOffLabel(timeOff)] },
        });
        return timeOff;
      });
    },

    async removeTimeOff(id: string, actor: AuditActor): Promise<void> {
      if (!isUuid(id)) throw new AppError('NOT_FOUND', bookingMessages.timeOffNotFound);
      await withTransaction(db, async (tx) => {
        const repository = createAvailabilityRepository(tx);
        const row = await repository.deleteTimeOff(id);
        if (!row) throw new AppError('NOT_FOUND', bookingMessages.timeOffNotFound);
        const technician = await repository.lockTechnician(row.technicianId);
        await recordAudit(tx, {
          actor,
          entityType: 'technician',
          entityId: row.technicianId,
          entityLabel: technician?.name ?? 'Technician',
          action: 'time_off_removed',
          changes: { timeOff: [timeOffLabel(toTimeOff(row)), null] },
        });
      });
    },
  };
}

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
