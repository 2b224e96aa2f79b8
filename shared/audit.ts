import { z } from 'zod';

/**
 * The activity log (issue 10): an append-only record of who changed what and when, written by the
 * services in the same transaction as the change (server/modules/audit/audit.service.ts).
 */
export const auditEntityTypes = ['customer', 'work_order', 'lead', 'chat_lead', 'staff', 'technician', 'settings', 'price_book_item', 'tax_rate', 'invoice', 'quote', 'agreement', 'agreement_signup'] as const;
export type AuditEntityType = (typeof auditEntityTypes)[number];

export const auditEntityTypeLabels: Record<AuditEntityType, string> = {
  customer: 'Customer',
  work_order: 'Work order',
  lead: 'Lead',
  chat_lead: 'Chat lead',
  staff: 'Staff account',
  technician: 'Technician',
  settings: 'Settings',
  price_book_item: 'Price book item',
  tax_rate: 'Tax rate',
  invoice: 'Invoice',
  quote: 'Quote',
  agreement: 'Maintenance agreement',
  agreement_signup: 'Plan sign-up',
};

/**
 * The actions services record. The column is free text so a new kind of change needs no migration;
 * these are the ones the panel knows how to name (anything else is shown as written).
 */
export const auditActionLabels: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  status_changed: 'Status changed',
  converted: 'Converted',
  scheduled: 'Scheduled',
  rescheduled: 'Rescheduled',
  assigned: 'Technician assigned',
  appointment_updated: 'Appointment edited',
  notes_updated: 'Notes updated',
  task_added: 'Task added',
  task_updated: 'Task updated',
  inspection_added: 'Inspection report added',
  photos_added: 'Photos added',
  photo_removed: 'Photo removed',
  location_set: 'Map pin placed',
  renamed: 'Renamed',
  activated: 'Activated',
  deactivated: 'Deactivated',
  password_reset: 'Password reset',
  password_changed: 'Password changed',
  invited: 'Invited',
  role_changed: 'Role changed',
  test_sent: 'Test run',
  match_confirmed: 'Possible match: same customer',
  match_dismissed: 'Possible match: new customer',
  imported: 'Imported',
  confirmed: 'Confirmed',
  declined: 'Declined',
  paid_online: 'Paid online',
  refunded_online: 'Refunded online',
};

/** The changed fields: {field: [before, after]}; null on one side for created and deleted. */
export type AuditChanges = Record<string, [unknown, unknown]>;

export const auditEntrySchema = z.object({
  id: z.string(),
  occurredAt: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  /** An AuditEntityType, or an older type still in the log. */
  entityType: z.string(),
  entityId: z.string(),
  entityLabel: z.string().nullable(),
  action: z.string(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSize = 50;

export const auditListQuerySchema = z.object({
  entityType: z.enum(auditEntityTypes).optional().or(z.literal('').transform(() => undefined)),
  entityId: z.string().trim().max(200).optional().transform((value) => (value ? value : undefined)),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type AuditListQuery = z.output<typeof auditListQuerySchema>;

export const auditListResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Whether a next page exists (one more row than a page was read). */
  hasMore: z.boolean(),
});
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/** Where a record of the log lives in the back office, when it has a screen of its own. */
export function auditEntityPath(entityType: string, entityId: string): string | null {
  switch (entityType) {
    case 'customer':
      return `/admin/customers/${entityId}`;
    case 'work_order':
      return `/admin/workorders/${entityId}`;
    case 'lead':
      return `/admin/estimates?filter=all&lead=estimate:${entityId}`;
    case 'chat_lead':
      return `/admin/estimates?filter=all&lead=chat:${entityId}`;
    case 'technician':
      return '/admin/settings?tab=technicians';
    case 'invoice':
      return `/admin/invoices/${entityId}`;
    case 'quote':
      return `/admin/quotes/${entityId}`;
    case 'staff':
      return '/admin/settings?tab=staff';
    case 'price_book_item':
      return `/admin/price-book?item=${entityId}`;
    case 'tax_rate':
      return '/admin/settings?tab=billing';
    default:
      return null;
  }
}

/** The activity screen filtered to one record: what 'View activity' links open. */
export function activityPathFor(entityType: AuditEntityType, entityId: string): string {
  return `/admin/settings?tab=activity&entityType=${entityType}&entityId=${encodeURIComponent(entityId)}`;
}
