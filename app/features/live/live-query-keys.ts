import type { QueryKey } from '@tanstack/react-query';
import type { LiveTopic } from '#shared/live-events.ts';

/**
 * Which cached screens a change to each table can affect, as query-key prefixes. Every admin
 * feature keys its queries under one of these prefixes; a change invalidates all queries under
 * them (topic-level: the event does not say which row changed).
 */
export const liveTopicQueryKeys: Record<LiveTopic, readonly QueryKey[]> = {
  estimate_requests: [['leads'], ['dashboard'], ['notifications']],
  ai_leads: [['leads'], ['dashboard']],
  work_orders: [['work-orders'], ['dashboard'], ['customers'], ['calendar'], ['map'], ['agreements']],
  admin_notifications: [['notifications']],
  customers: [['customers'], ['work-orders'], ['leads'], ['map'], ['geocoding']],
  // A batch's progress: the setup page's stats and progress, and the map (its markers and stats line).
  geocoding_batches: [['geocoding'], ['map']],
  // Settings: a technician's name, colour or active flag shows on the calendar, lists and pickers.
  technicians: [['technicians'], ['calendar'], ['work-orders'], ['map']],
  // Billing (issue 20): the price book screen and pickers; quotes, invoices and the A/R figures.
  price_book_items: [['price-book']],
  quotes: [['quotes'], ['work-orders'], ['customers'], ['dashboard']],
  invoices: [['invoices'], ['work-orders'], ['customers'], ['dashboard']],
  payments: [['invoices'], ['dashboard']],
  // Maintenance agreements (issue 22): the profile's plans, Visits due, the dashboard's figures, the members' marks.
  maintenance_agreements: [['agreements'], ['customers'], ['dashboard'], ['calendar'], ['map']],
};

/**
 * Prefixes whose screens are costly to reload are refetched at most this often: the map's answer is
 * megabytes at 20,000 customers, and a geocoding batch changes a customer every half second. A
 * change inside the interval is applied when it ends, so nothing is missed.
 */
export const liveMinIntervalMs: Readonly<Record<string, number>> = { map: 5_000 };

/** The prefixes to invalidate for a set of changed topics, each once. */
export function queryKeysForTopics(topics: Iterable<LiveTopic>): QueryKey[] {
  const unique = new Map<string, QueryKey>();
  for (const topic of topics) {
    for (const key of liveTopicQueryKeys[topic]) unique.set(JSON.stringify(key), key);
  }
  return [...unique.values()];
}
