/**
 * Live updates for signed-in staff (issue 7). The server streams one Server-Sent Events feed at
 * /api/admin/events; each change to one of these tables arrives as
 *
 *   event: change
 *   data: {"topic":"work_orders","action":"update"}
 *
 * A new connection (and every reconnection) first receives `event: ready`; the client then treats
 * everything it holds as stale, so changes missed while disconnected are refetched. Changes are
 * published with PostgreSQL NOTIFY on commit, so every server instance on the database sees them.
 */
export const liveTopics = [
  'estimate_requests',
  'ai_leads',
  'work_orders',
  'admin_notifications',
  'customers',
  'geocoding_batches',
  'technicians',
  'price_book_items',
  'quotes',
  'invoices',
  'payments',
  'maintenance_agreements',
] as const;
export type LiveTopic = (typeof liveTopics)[number];

export const liveActions = ['insert', 'update', 'delete'] as const;
export type LiveAction = (typeof liveActions)[number];

export type LiveChange = { topic: LiveTopic; action: LiveAction };

/** The PostgreSQL NOTIFY channel the database publishes changes on. */
export const liveChannel = 'hvac_changes';
