/**
 * Open arrival windows (issue 21, decision 026-c): which of the company's arrival windows a
 * qualified, working, not-off technician can really make, with the whole visit and the travel
 * buffers free. Pure rules: the caller reads the settings and the booked visits and says what "now"
 * is, so the same function serves the booking page, the chat and the re-check under a lock.
 *
 * Everything is in the company's wall-clock time, as work orders are stored (a service date and
 * local start and end times): a day's windows, hours and visits are minutes after local midnight,
 * so a daylight-saving change moves nothing on the clock. Only "now plus the lead time" crosses
 * from an instant to the wall clock (`localMoment`), through the time zone's own rules.
 */

/** Minutes after local midnight, 0-1440. */
export type Minutes = number;
export type TimeRange = { start: Minutes; end: Minutes };
/** A local calendar date, YYYY-MM-DD. */
export type LocalDate = string;

export type TechnicianAvailability = {
  id: string;
  /** The service types this technician does. */
  serviceTypes: readonly string[];
  /** Working hours by weekday, 0 = Sunday; a weekday without ranges is a day off. */
  weeklyHours: Readonly<Partial<Record<number, readonly TimeRange[]>>>;
  /** Time off: a whole day (no range) or part of one. */
  timeOff: readonly { date: LocalDate; range?: TimeRange }[];
  /** Visits already booked (not cancelled), each with its local date and times. */
  visits: readonly { date: LocalDate; start: Minutes; end: Minutes }[];
};

export type SlotRules = {
  serviceType: string;
  durationMinutes: number;
  /** Travel between two visits: kept free before and after each booked visit. */
  bufferMinutes: number;
  /** The company's arrival windows, e.g. 8-10, 10-12, 13-15, 15-17. */
  windows: readonly TimeRange[];
  /** The first bookable moment (now plus the lead time), on the company's clock. */
  earliest: { date: LocalDate; minutes: Minutes };
  /** The last bookable date (today plus the horizon), inclusive. */
  lastDate: LocalDate;
  /** Arrival times are tried this far apart within a window. */
  stepMinutes?: number;
};

export type WindowCandidate = { technicianId: string; start: Minutes; end: Minutes };
export type OpenWindow = { date: LocalDate; window: TimeRange; candidates: WindowCandidate[] };

const dayMinutes = 24 * 60;

const overlaps = (a: TimeRange, b: TimeRange) => a.start < b.end && b.start < a.end;

function weekdayOf(date: LocalDate): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

function nextDate(date: LocalDate): LocalDate {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/**
 * The earliest arrival in `window` on `date` at which this technician can do the visit: the visit
 * inside one working range, clear of time off, and clear of every booked visit by the buffer on
 * both sides. Undefined when there is none.
 */
export function earliestArrival(technician: TechnicianAvailability, date: LocalDate, window: TimeRange, rules: SlotRules): WindowCandidate | undefined {
  if (!technician.serviceTypes.includes(rules.serviceType)) return undefined;
  const working = technician.weeklyHours[weekdayOf(date)] ?? [];
  if (working.length === 0) return undefined;
  const off = technician.timeOff.filter((entry) => entry.date === date).map((entry) => entry.range ?? { start: 0, end: dayMinutes });
  const visits = technician.visits.filter((visit) => visit.date === date);
  const step = rules.stepMinutes ?? 15;
  const notBefore = date === rules.earliest.date ? rules.earliest.minutes : 0;
  for (let start = window.start; start < window.end; start += step) {
    if (start < notBefore) continue;
    const visit = { start, end: start + rules.durationMinutes };
    if (visit.end > dayMinutes) break;
    if (!working.some((range) => range.start <= visit.start && visit.end <= range.end)) continue;
    if (off.some((range) => overlaps(range, visit))) continue;
    const withTravel = { start: visit.start - rules.bufferMinutes, end: visit.end + rules.bufferMinutes };
    if (visits.some((booked) => overlaps(booked, withTravel))) continue;
    return { technicianId: technician.id, start: visit.start, end: visit.end };
  }
  return undefined;
}

/** Every arrival window from `rules.earliest` to `rules.lastDate` that some technician can make, in order. */
export function openWindows(technicians: readonly TechnicianAvailability[], rules: SlotRules): OpenWindow[] {
  const open: OpenWindow[] = [];
  const windows = [...rules.windows].sort((a, b) => a.start - b.start);
  for (let date = rules.earliest.date; date <= rules.lastDate; date = nextDate(date)) {
    for (const window of windows) {
      const candidates = technicians.flatMap((technician) => earliestArrival(technician, date, window, rules) ?? []);
      if (candidates.length > 0) open.push({ date, window, candidates });
    }
  }
  return open;
}

const momentFormats = new Map<string, Intl.DateTimeFormat>();

/** An instant on the company's clock: its local date and minutes after local midnight. */
export function localMoment(instant: Date, timeZone: string): { date: LocalDate; minutes: Minutes } {
  let format = momentFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    momentFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}
