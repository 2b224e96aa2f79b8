/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Calendar dates (YYYY-MM-DD) in the company's time zone, never the server's or the browser's. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA formats as YYYY-MM-DD. An unknown zone throws here, before anything is kept.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

export const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;

export function isValidIsoDate(value: string): boolean {
  if (!isoDatePattern.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar date plus (or minus) whole days: '2026-03-01' - 1 → '2026-02-28'. No time zone involved. */
export function addDays(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The first day of the calendar month `months` after the date's month: ('2026-12-15', 1) → '2027-01-01'. */
export function monthStart(isoDate: string, months = 0): string {
  const [year, month] = isoDate.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 + months, 1)).toISOString().slice(0, 10);
}
