import { z } from 'zod';
import { customerInputSchema, customerListItemSchema } from './customer.ts';
import { possibleCustomerMatchSchema } from './customer-match.ts';
import {
  leadStatuses,
  workOrderPriorities,
  workOrderServiceTypes,
  type EstimateServiceType,
  type LeadSource,
  type LeadStatus,
  type WorkOrderPriority,
  type WorkOrderServiceType,
} from './enums.ts';
import { workOrderCreateSchema } from './work-order.ts';
import { checkServiceAddress } from './work-order-place.ts';

// Lead management (spec 000 sections 2, 4, 7-9; issue 7): the tabs and their rules, the schemas of
// the leads API, the conversion's mappings and the screen's exact words. Chat leads (ai_leads) are
// listed beside estimate requests; docs/decisions/012-lead-metrics.md says how the tabs and the
// metrics treat them.

export const leadMessages = {
  statusUpdateFailed: 'Failed to update status',
  loading: 'Loading leads...',
  noLeads: 'No leads found',
  noLeadsText: 'Try another tab or adjust your search terms',
  searchPlaceholder: 'Search by name, email, phone, address or description...',
  notFound: 'Lead not found',
  conflict: 'Someone else changed this lead since you opened it. Review the current values and try again.',
  alreadyConverted: 'This lead has already been converted to a work order.',
  chatLeadNotConvertible: 'Chat leads are booked by the assistant; only estimate requests are converted here.',
  convertTitle: 'Qualify & Convert to Work Order',
  converted: 'Lead converted to a work order.',
  convertFailed: (message: string) => `Error converting lead: ${message}`,
  customerNotFound: 'The chosen customer no longer exists. Choose another or create a new one.',
} as const;

/** Spec 000 section 4: the tabs, in the screen's order. `all` is ours: every lead, whatever its state. */
export const leadFilters = ['active', 'urgent', 'new', 'contacted', 'quoted', 'converted', 'all'] as const;
export type LeadFilter = (typeof leadFilters)[number];

export const leadFilterLabels: Record<LeadFilter, string> = {
  active: 'Active',
  urgent: 'Urgent',
  new: 'New',
  contacted: 'Contacted',
  quoted: 'Quoted',
  converted: 'Converted',
  all: 'All',
};

/** Spec 000 section 4, for estimate requests; chat leads' readings are in decision 012. */
export const leadFilterRules: Record<LeadFilter, string> = {
  active: 'Status pending, contacted or quoted (chat leads: not yet booked)',
  urgent: 'Priority urgent with status pending or contacted (chat leads: emergency or high urgency, not yet booked)',
  new: 'Status pending (chat leads: not yet booked)',
  contacted: 'Status contacted',
  quoted: 'Status quoted',
  converted: 'Converted to a work order',
  all: 'Every lead',
};

export const leadStatusLabels: Record<LeadStatus, string> = {
  pending: 'Pending',
  contacted: 'Contacted',
  quoted: 'Quoted',
  scheduled: 'Scheduled',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

export const leadSourceLabels: Record<LeadSource, string> = {
  website: 'Website',
  ai_chat: 'AI chat',
  phone: 'Phone',
  walk_in: 'Walk-in',
  angies_list: "Angie's List",
  home_rely: 'HomeRely',
  manual: 'Entered by staff',
};

/** Spec 000 section 9: the lead list previews 150 characters of the description. */
export const leadDescriptionPreviewLength = 150;

/** The status an estimate request takes when it becomes a work order (decision 012). */
export const convertedLeadStatus: LeadStatus = 'scheduled';

/** The metrics' definitions, shown beside them on the screen (decision 012). */
export const leadMetricDefinitions = {
  averageResponseTime:
    'Average time from an estimate request arriving to staff first moving it out of Pending (or converting it), over every request that has been answered. Chat leads are answered by the assistant and are not counted.',
  conversionRate:
    'Estimate requests converted to a work order, divided by all estimate requests. Chat leads are booked by the assistant and are counted separately.',
} as const;

export const leadListQuerySchema = z.object({
  filter: z.enum(leadFilters).default('active'),
  search: z.string().trim().max(200).default(''),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type LeadListQuery = z.input<typeof leadListQuerySchema>;

export const leadStatusChangeSchema = z.object({
  status: z.enum(leadStatuses, { error: 'Choose a status from the list' }),
  expectedUpdatedAt: z.iso.datetime({ offset: true }),
});

/**
 * The conversion: an existing customer (by id) or a new one (the customer form's schema), and the
 * work order (the new-work-order schema, without its customer).
 */
export function leadConversionSchema(today: string) {
  return z.object({
    customer: z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('existing'), customerId: z.uuid({ error: 'Choose a customer' }) }),
      customerInputSchema.extend({ mode: z.literal('new') }),
    ]),
    workOrder: workOrderCreateSchema(today).omit({ customerId: true }).superRefine(checkServiceAddress),
  });
}
export type LeadConversionInput = z.input<ReturnType<typeof leadConversionSchema>>;

export const leadKinds = ['estimate', 'chat'] as const;
export type LeadKind = (typeof leadKinds)[number];

/** A lead of either kind, as the list and the details panel show it. */
export const leadListItemSchema = z.object({
  kind: z.enum(leadKinds),
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  serviceType: z.string().nullable(),
  description: z.string().nullable(),
  preferredDate: z.string().nullable(),
  preferredTime: z.string().nullable(),
  /** Estimate requests: a lead status; chat leads: 'new' or 'converted'. */
  status: z.string(),
  /** 'urgent' or 'normal' (chat leads: urgent for emergency or high urgency). */
  priority: z.string(),
  source: z.string(),
  workflowStage: z.string().nullable(),
  isConverted: z.boolean(),
  /** Spec 000 section 9 score for estimate requests; the stored score for chat leads. */
  leadScore: z.number(),
  /** Chat leads only: emergency, high, medium or low. */
  urgency: z.string().nullable(),
  conversationId: z.string().nullable(),
  respondedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  customer: customerListItemSchema.pick({ id: true, name: true, phone: true, email: true, address: true }).nullable(),
  workOrder: z.object({ id: z.string(), workOrderNumber: z.string(), status: z.string() }).nullable(),
  /** Chat leads: a stored customer the booking's phone or e-mail matched, for staff to confirm (decision 018-a). */
  possibleMatch: possibleCustomerMatchSchema.nullable(),
});
export type LeadListItem = z.infer<typeof leadListItemSchema>;

/** One exchange of a chat lead's conversation with the assistant. */
export const leadConversationTurnSchema = z.object({ userMessage: z.string(), aiResponse: z.string(), intent: z.string(), createdAt: z.string() });
export type LeadConversationTurn = z.infer<typeof leadConversationTurnSchema>;

/** The details panel: the lead and, for a chat lead, its conversation (oldest first, at most the last 50 exchanges). */
export const leadDetailResponseSchema = z.object({ lead: leadListItemSchema, conversation: z.array(leadConversationTurnSchema) });
export type LeadDetailResponse = z.infer<typeof leadDetailResponseSchema>;
export const leadConversationLimit = 50;

export const leadListResponseSchema = z.object({
  leads: z.array(leadListItemSchema),
  total: z.number().int(),
  /** The matches are counted only up to a cap: true when there are more than `total`. */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type LeadListResponse = z.infer<typeof leadListResponseSchema>;

export const leadStatsSchema = z.object({
  counts: z.record(z.enum(leadFilters), z.number().int()),
  /** Hours, or null when no lead has been answered yet. */
  averageResponseHours: z.number().nullable(),
  respondedCount: z.number().int(),
  /** 0-100, one decimal; 0 when there are no estimate requests. */
  conversionRate: z.number(),
  convertedCount: z.number().int(),
  estimateRequestCount: z.number().int(),
  chatLeadCount: z.number().int(),
});
export type LeadStats = z.infer<typeof leadStatsSchema>;

/** The estimate request as the API sends it after a change. */
export const estimateLeadSchema = leadListItemSchema.extend({ kind: z.literal('estimate') });
export type EstimateLead = z.infer<typeof estimateLeadSchema>;
export const estimateLeadResponseSchema = z.object({ lead: estimateLeadSchema });
export type EstimateLeadResponse = z.infer<typeof estimateLeadResponseSchema>;

/** What the dialog starts from: the matched customer (if any), the new-customer form and the work order. */
export const leadConversionProposalSchema = z.object({
  matchedCustomer: customerListItemSchema.nullable(),
  newCustomer: z.object({
    name: z.string(),
    type: z.enum(['residential', 'commercial']),
    phone: z.string(),
    email: z.string().nullable(),
    address: z.string(),
    city: z.string().optional(),
    state: z.string().optional(),
    zip: z.string().optional(),
  }),
  workOrder: z.object({
    title: z.string(),
    serviceType: z.enum(workOrderServiceTypes),
    priority: z.enum(workOrderPriorities),
    serviceDate: z.string(),
    timePreference: z.enum(['morning', 'afternoon', 'anytime']),
    description: z.string(),
    notes: z.string(),
  }),
});
export type LeadConversionProposal = z.infer<typeof leadConversionProposalSchema>;

export const leadConversionResultSchema = z.object({
  lead: estimateLeadSchema,
  workOrder: z.object({ id: z.string(), workOrderNumber: z.string() }),
  customer: z.object({ id: z.string(), name: z.string() }),
  isNewCustomer: z.boolean(),
});
export type LeadConversionResult = z.infer<typeof leadConversionResultSchema>;

/** The two kinds' addresses: /api/admin/leads/:kind/:id. */
export const leadParamsSchema = z.object({ kind: z.enum(leadKinds), id: z.string() });

// The conversion's mappings (decision 012) ---------------------------------------------------------

export const estimateToWorkOrderServiceType: Record<EstimateServiceType, WorkOrderServiceType> = {
  'ac-installation': 'installation',
  'heating-installation': 'installation',
  'ac-repair': 'repair',
  'heating-repair': 'repair',
  maintenance: 'maintenance',
  ductwork: 'ductwork',
  // Nobody knows yet what the job is: a technician looks first.
  other: 'inspection',
};

/** Urgent requests (the two repair types) are high priority jobs; the rest normal. */
export function leadPriorityToWorkOrderPriority(priority: string): WorkOrderPriority {
  return priority === 'urgent' ? 'high' : 'normal';
}

/** The work-order form has no evening window (its afternoon ends at 5PM): evening becomes anytime. */
export function estimateTimeToWorkOrderTime(preferredTime: string | null): 'morning' | 'afternoon' | 'anytime' {
  return preferredTime === 'morning' || preferredTime === 'afternoon' ? preferredTime : 'anytime';
}

/**
 * "12 Oak St, Hilton Head Island, SC 29926" → street, city, state and ZIP for the customer form;
 * an address without a recognisable city and state keeps the form's defaults (Bluffton, SC).
 */
export function splitLeadAddress(address: string): { address: string; city?: string; state?: string; zip?: string } {
  const match = /^(.+?),\s*([^,]+?),\s*([A-Za-z]{2})\.?(?:\s+(\d{5}(?:-\d{4})?))?\s*$/.exec(address.trim());
  if (!match) return { address: address.trim() };
  return { address: match[1]!.trim(), city: match[2]!.trim(), state: match[3]!.toUpperCase(), ...(match[4] ? { zip: match[4] } : {}) };
}
