import { z } from 'zod';
import { customerInputSchema, type CustomerListItem } from './customer.ts';
import {
  leadStatuses,
  type EstimateServiceType,
  type LeadSource,
  type LeadStatus,
  type WorkOrderPriority,
  type WorkOrderServiceType,
} from './enums.ts';
import { workOrderCreateSchema } from './work-order.ts';

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
    workOrder: workOrderCreateSchema(today).omit({ customerId: true }),
  });
}
export type LeadConversionInput = z.input<ReturnType<typeof leadConversionSchema>>;

export type LeadKind = 'estimate' | 'chat';

/** A lead of either kind, as the list and the details panel show it. */
export type LeadListItem = {
  kind: LeadKind;
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  serviceType: string | null;
  description: string | null;
  preferredDate: string | null;
  preferredTime: string | null;
  /** Estimate requests: a lead status; chat leads: 'new' or 'converted'. */
  status: string;
  /** 'urgent' or 'normal' (chat leads: urgent for emergency or high urgency). */
  priority: string;
  source: string;
  workflowStage: string | null;
  isConverted: boolean;
  /** Spec 000 section 9 score for estimate requests; the stored score for chat leads. */
  leadScore: number;
  /** Chat leads only: emergency, high, medium or low. */
  urgency: string | null;
  conversationId: string | null;
  respondedAt: string | null;
  createdAt: string;
  updatedAt: string;
  customer: Pick<CustomerListItem, 'id' | 'name' | 'phone' | 'email' | 'address'> | null;
  workOrder: { id: string; workOrderNumber: string; status: string } | null;
};

/** One exchange of a chat lead's conversation with the assistant. */
export type LeadConversationTurn = { userMessage: string; aiResponse: string; intent: string; createdAt: string };

/** The details panel: the lead and, for a chat lead, its conversation (oldest first, at most the last 50 exchanges). */
export type LeadDetailResponse = { lead: LeadListItem; conversation: LeadConversationTurn[] };
export const leadConversationLimit = 50;

export type LeadListResponse = { leads: LeadListItem[]; total: number; page: number; pageSize: number };

export type LeadStats = {
  counts: Record<LeadFilter, number>;
  /** Hours, or null when no lead has been answered yet. */
  averageResponseHours: number | null;
  respondedCount: number;
  /** 0-100, one decimal; 0 when there are no estimate requests. */
  conversionRate: number;
  convertedCount: number;
  estimateRequestCount: number;
  chatLeadCount: number;
};

/** The estimate request as the API sends it after a change. */
export type EstimateLead = LeadListItem & { kind: 'estimate' };

/** What the dialog starts from: the matched customer (if any), the new-customer form and the work order. */
export type LeadConversionProposal = {
  matchedCustomer: CustomerListItem | null;
  newCustomer: { name: string; type: 'residential' | 'commercial'; phone: string; email: string | null; address: string; city?: string; state?: string; zip?: string };
  workOrder: {
    title: string;
    serviceType: WorkOrderServiceType;
    priority: WorkOrderPriority;
    serviceDate: string;
    timePreference: 'morning' | 'afternoon' | 'anytime';
    description: string;
    notes: string;
  };
};

export type LeadConversionResult = { lead: EstimateLead; workOrder: { id: string; workOrderNumber: string }; customer: { id: string; name: string }; isNewCustomer: boolean };

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
