/**
 * Totals of a list or a search are counted up to this many rows (issue 17): the count reads at
 * most countCap + 1 matches, however many there are, and more than the cap reads as "1,000+".
 * Shared by the work-order list, the customer directory and the leads list.
 */
export const countCap = 1_000;

/**
 * The total a list reports from a count taken with `limit countCap + 1` (`counted`) and the rows
 * it has seen up to the end of the page (`seen`: a full page deep in a common search has shown
 * more than the cap). Past the cap the total is a lower bound and `totalCapped` says so.
 */
export function cappedTotal(counted: number, seen = 0): { total: number; totalCapped: boolean } {
  if (counted <= countCap) return { total: counted, totalCapped: false };
  return { total: Math.max(countCap, seen), totalCapped: true };
}
