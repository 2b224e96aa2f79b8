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
  work_orders: [['work-orders'], ['dashboard'], ['customers'], ['calendar'], ['map']],
  admin_notifications: [['notifications']],
  customers: [['customers'], ['work-orders'], ['leads'], ['map'], ['geocoding']],
  // A batch's progress: the setup page's stats and progress, and the map (its markers and stats line).
  geocoding_batches: [['geocoding'], ['map']],
};

/** The prefixes to invalidate for a set of changed topics, each once. */
export function queryKeysForTopics(topics: Iterable<LiveTopic>): QueryKey[] {
  const unique = new Map<string, QueryKey>();
  for (const topic of topics) {
    for (const key of liveTopicQueryKeys[topic]) unique.set(JSON.stringify(key), key);
  }
  return [...unique.values()];
}
