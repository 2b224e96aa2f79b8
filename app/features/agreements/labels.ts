import { maintenanceSeasons, type MaintenanceSeason } from '#shared/maintenance-plans.ts';

/** "Mar 1, 2027" from "2027-03-01". */
export function formatDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))),
  );
}

/** "Spring 2027" from "2027-spring". */
export function seasonOf(period: string): string {
  const [year, season] = period.split('-') as [string, MaintenanceSeason];
  return `${maintenanceSeasons[season]?.label ?? season} ${year}`;
}

/** "March 2027" from "2027-03". */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}
