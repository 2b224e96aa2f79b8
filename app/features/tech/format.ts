import { addDays, todayIn } from '#shared/dates.ts';
import type { TechVisit } from '#shared/tech.ts';
import { company } from '#client/lib/company.ts';

/** '13:30:00' → { text: '1:30', meridiem: 'PM' } */
function clock(time: string): { text: string; meridiem: 'AM' | 'PM' } {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const meridiem = hours >= 12 ? 'PM' : 'AM';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return { text: `${hour12}:${String(minutes).padStart(2, '0')}`, meridiem };
}

const preferenceLabels: Record<string, string> = { morning: 'Morning', afternoon: 'Afternoon', anytime: 'Any time' };

/** "8:00–10:00 AM", "11:30 AM–1:00 PM", "9:00 AM", or the customer's preference ("Morning"). */
export function visitWindow(visit: Pick<TechVisit, 'scheduledStartTime' | 'scheduledEndTime' | 'timePreference'>): string {
  if (!visit.scheduledStartTime) return preferenceLabels[visit.timePreference] ?? 'Any time';
  const start = clock(visit.scheduledStartTime);
  if (!visit.scheduledEndTime) return `${start.text} ${start.meridiem}`;
  const end = clock(visit.scheduledEndTime);
  return start.meridiem === end.meridiem ? `${start.text}–${end.text} ${end.meridiem}` : `${start.text} ${start.meridiem}–${end.text} ${end.meridiem}`;
}

/** A time of day on the device's clock: "9:05 AM". */
export function timeOfDay(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** A calendar date (YYYY-MM-DD) in words, "Fri, Nov 27", whatever the phone's time zone. */
export function shortDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day!)).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * The business's today (YYYY-MM-DD) in its time zone, not the phone's: the office schedules visits
 * on the business's days, so a phone set to another zone (travel, a wrong setting) or the hours
 * around midnight would otherwise show and fetch the wrong days.
 */
export function techToday(now: Date = new Date(), timeZone: string = company.timeZone): string {
  return todayIn(timeZone, now);
}

/** The business's calendar date of an instant (a photo's or a note's time). */
export function businessDateOf(iso: string, timeZone: string = company.timeZone): string {
  return todayIn(timeZone, new Date(iso));
}

/** The days the app keeps, from the business's today: [{ date, label: 'Today' | 'Tomorrow' | 'Fri, Nov 27' }]. */
export function offlineDays(today: string, count: number): { date: string; label: string }[] {
  return Array.from({ length: count }, (_, index) => {
    const date = addDays(today, index);
    return { date, label: index === 0 ? 'Today' : index === 1 ? 'Tomorrow' : shortDate(date) };
  });
}

export function siteAddress(site: TechVisit['site']): string {
  const stateZip = [site.state, site.zip].filter(Boolean).join(' ');
  return [site.address, [site.city, stateZip].filter(Boolean).join(', ')].filter(Boolean).join(', ');
}

/**
 * Directions in the phone's maps app (decision 022-b): a universal Google Maps link opens the
 * Google Maps app on Android and iOS when installed, else the browser; `geo:` works on Android only.
 * The pin when the site has one (exact), else the address.
 */
export function navigateUrl(site: TechVisit['site']): string {
  const destination = site.latitude !== null && site.longitude !== null ? `${site.latitude},${site.longitude}` : siteAddress(site);
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}

export function telUrl(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** Where the visit stands on the status flow. */
export type VisitStep = 'not-started' | 'en-route' | 'on-site' | 'completed' | 'cancelled';
export function visitStep(visit: TechVisit): VisitStep {
  if (visit.status === 'cancelled') return 'cancelled';
  if (visit.status === 'completed') return 'completed';
  if (visit.onSiteAt) return 'on-site';
  if (visit.enRouteAt) return 'en-route';
  return 'not-started';
}

export const stepLabels: Record<VisitStep, string> = {
  'not-started': 'Not started',
  'en-route': 'En route',
  'on-site': 'On site',
  completed: 'Work complete',
  cancelled: 'Cancelled',
};
