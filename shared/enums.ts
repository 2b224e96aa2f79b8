// Value sets of the spec (documents 000 and 001, sections 3-5). One place per fact: the database
// check constraints, the zod schemas and the screens all read these lists.

export const customerTypes = ['residential', 'commercial'] as const;
export type CustomerType = (typeof customerTypes)[number];

export const geocodingStatuses = ['pending', 'success', 'failed'] as const;
export type GeocodingStatus = (typeof geocodingStatuses)[number];

export const refrigerantTypes = ['R-22', 'R-410A', 'R-32', 'R-134a', 'R-407C', 'other'] as const;
export const tonnages = ['1.5', '2', '2.5', '3', '3.5', '4', '5', 'other'] as const;

export const workOrderStatuses = ['pending', 'scheduled', 'in-progress', 'completed', 'cancelled'] as const;
export type WorkOrderStatus = (typeof workOrderStatuses)[number];
export const activeWorkOrderStatuses = ['pending', 'scheduled', 'in-progress'] as const satisfies readonly WorkOrderStatus[];

export const workOrderServiceTypes = ['repair', 'maintenance', 'installation', 'inspection', 'ductwork'] as const;
export type WorkOrderServiceType = (typeof workOrderServiceTypes)[number];

export const workOrderPriorities = ['low', 'normal', 'high', 'emergency'] as const;
export type WorkOrderPriority = (typeof workOrderPriorities)[number];

/** Work-order form time preference: morning 8AM-12PM, afternoon 12PM-5PM, anytime. */
export const workOrderTimePreferences = ['morning', 'afternoon', 'anytime'] as const;

export const estimateServiceTypes = [
  'ac-installation',
  'ac-repair',
  'heating-installation',
  'heating-repair',
  'maintenance',
  'ductwork',
  'other',
] as const;
export type EstimateServiceType = (typeof estimateServiceTypes)[number];

/** Estimate form time preference: morning 8AM-12PM, afternoon 12PM-4PM, evening 4PM-7PM. */
export const estimateTimePreferences = ['morning', 'afternoon', 'evening'] as const;

export const leadStatuses = ['pending', 'contacted', 'quoted', 'scheduled', 'completed', 'cancelled'] as const;
export type LeadStatus = (typeof leadStatuses)[number];

export const leadPriorities = ['urgent', 'normal'] as const;

export const leadSources = ['website', 'ai_chat', 'phone', 'walk_in', 'angies_list', 'home_rely', 'manual'] as const;
export type LeadSource = (typeof leadSources)[number];

export const leadWorkflowStages = ['converted_to_work_order'] as const;



export const aiLeadStatuses = ['new', 'converted'] as const;

/**
 * Issue 10: an admin may do everything; a dispatcher everything except staff accounts and settings.
 * Issue 19: a technician uses the technician app (/tech, /api/tech) only, linked to one technician.
 */
export const staffRoles = ['admin', 'dispatcher', 'technician'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** Issue 18 (decision 021-a): customer messages, their channels and states, and consent. */
export const messageTypes = [
  'appointment_confirmed',
  'appointment_rescheduled',
  'appointment_cancelled',
  'appointment_reminder',
  'on_my_way',
  'visit_completed',
  'estimate_received',
  // Issue 20: a quote or an invoice sent with its customer link, and an overdue invoice's reminder.
  'quote_sent',
  'invoice_sent',
  'invoice_overdue',
] as const;
export type MessageType = (typeof messageTypes)[number];
export const messageChannels = ['email', 'sms'] as const;
export type MessageChannel = (typeof messageChannels)[number];
/** scheduled → sending → sent / failed / skipped; or cancelled before it is sent. */
export const messageStatuses = ['scheduled', 'sending', 'sent', 'failed', 'skipped', 'cancelled'] as const;
export type MessageStatus = (typeof messageStatuses)[number];
export const consentStatuses = ['opted_in', 'opted_out'] as const;
export type ConsentStatus = (typeof consentStatuses)[number];
export const consentSources = ['form', 'staff', 'reply', 'default'] as const;
export type ConsentSource = (typeof consentSources)[number];

// Price book, quotes, invoices and payments (issue 20, decision 024-c) --------------------------

/** A price-book item: a service (a fixed-price visit), labour (per hour), a part, equipment, or a flat-rate task (a named job at a fixed price). */
export const priceBookItemKinds = ['service', 'labor', 'part', 'equipment', 'task'] as const;
export type PriceBookItemKind = (typeof priceBookItemKinds)[number];

export const quoteStatuses = ['draft', 'sent', 'approved', 'declined', 'cancelled'] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];

/** An invoice or credit note's life: a sent one is never edited in place (credit note, or void and reissue). */
export const invoiceStatuses = ['draft', 'sent', 'partially_paid', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];
export const openInvoiceStatuses = ['sent', 'partially_paid'] as const satisfies readonly InvoiceStatus[];

export const invoiceKinds = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/** How money came in (or went back): `credit_note` applies a credit note's amount to an invoice. */
export const paymentMethods = ['cash', 'check', 'card', 'bank_transfer', 'online_card', 'credit_note', 'other'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

export const paymentKinds = ['payment', 'refund'] as const;
export type PaymentKind = (typeof paymentKinds)[number];

/** Gapless numbering counters, one row per kind (locked by the transaction that issues a number). */
export const documentCounterKinds = ['invoice', 'credit_note', 'quote'] as const;
export type DocumentCounterKind = (typeof documentCounterKinds)[number];
