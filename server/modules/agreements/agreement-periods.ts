import { addMonths, generationLeadDays, seasonWindow } from '#shared/agreement.ts';
import { addDays } from '#shared/dates.ts';
import { maintenancePlanVisits, type MaintenancePlanId, type MaintenanceSeason, type PlanVisitRule } from '#shared/maintenance-plans.ts';

/** A season with less than this many days left when a term starts goes to the next year's (decision 027-b). */
export const minimumDaysLeftInSeason = 14;

export type TermPeriod = { rule: PlanVisitRule; period: string; season: MaintenanceSeason; dueFrom: string; dueBy: string };

/** The last day of a term of `months` months starting on `startsOn`. */
export function termEnd(startsOn: string, months: number): string {
  return addDays(addMonths(startsOn, months), -1);
}

/**
 * The visits a term of a plan holds: for each of the plan's seasons, its first window in the term
 * that still has two weeks left when the term starts; due from the later of the season's start and
 * the term's, until the earlier of their ends. One per season per term, so a 12-month term never
 * holds a season twice, and consecutive terms never share a period.
 */
export function termPeriods(planId: MaintenancePlanId, term: { startsOn: string; endsOn: string }): TermPeriod[] {
  const firstYear = Number(term.startsOn.slice(0, 4));
  const periods: TermPeriod[] = [];
  for (const rule of maintenancePlanVisits[planId]) {
    for (const year of [firstYear, firstYear + 1]) {
      const window = seasonWindow(year, rule.season);
      if (window.dueBy < addDays(term.startsOn, minimumDaysLeftInSeason) || window.dueFrom > term.endsOn) continue;
      periods.push({
        rule,
        period: window.period,
        season: rule.season,
        dueFrom: window.dueFrom > term.startsOn ? window.dueFrom : term.startsOn,
        dueBy: window.dueBy < term.endsOn ? window.dueBy : term.endsOn,
      });
      break;
    }
  }
  return periods.sort((a, b) => a.dueFrom.localeCompare(b.dueFrom));
}

/** The term's periods to generate on `today`: opening within the lead time and not yet over. */
export function periodsDue(planId: MaintenancePlanId, term: { startsOn: string; endsOn: string }, today: string, leadDays = generationLeadDays): TermPeriod[] {
  const horizon = addDays(today, leadDays);
  return termPeriods(planId, term).filter((period) => period.dueFrom <= horizon && period.dueBy >= today);
}
