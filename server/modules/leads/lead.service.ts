import type { z } from 'zod';
import type { EstimateServiceType, LeadSource, LeadStatus } from '#shared/enums.ts';
import { estimateServiceTypeLabels, estimateTimePreferenceLabels } from '#shared/estimate-labels.ts';
import { leadScore } from '#shared/chat.ts';
import {
  convertedLeadStatus,
  estimateTimeToWorkOrderTime,
  estimateToWorkOrderServiceType,
  leadConversationLimit,
  leadFilters,
  leadMessages,
  leadPriorityToWorkOrderPriority,
  leadSourceLabels,
  splitLeadAddress,
  type EstimateLead,
  type LeadConversionProposal,
  type LeadConversionResult,
  type LeadDetailResponse,
  type LeadFilter,
  type LeadListItem,
  type LeadListResponse,
  type LeadStats,
  type leadConversionSchema,
  type leadListQuerySchema,
} from '#shared/lead.ts';
import { withTransaction, type Database, type RepositoryFactory } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { diffFields, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { type CustomerRepository, recordCustomerChange } from '#server/modules/customers/index.ts';
import { recordFormSmsConsent } from '#server/modules/messaging/index.ts';
import { newWorkOrder, recordWorkOrderChange, technicianUnavailable, type WorkOrderRepository } from '#server/modules/work-orders/index.ts';
import { createLeadRepository, type LeadRow } from './lead.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

type ConversionValues = z.output<ReturnType<typeof leadConversionSchema>>;

/** A uuid as PostgreSQL prints it: anything else can never be an id, so it is a 404, not a 500. */
const notFound = () => new AppError('NOT_FOUND', leadMessages.notFound);

function leadId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function toLead(row: LeadRow): LeadListItem {
  const isConverted = row.workflowStage !== null;
  return {
    kind: row.kind,
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    serviceType: row.serviceType,
    description: row.description,
    preferredDate: row.preferredDate,
    preferredTime: row.preferredTime,
    status: row.status,
    priority: row.priority,
    source: row.source,
    workflowStage: row.workflowStage,
    isConverted,
    leadScore:
      row.kind === 'chat' && row.leadScore !== null
        ? Number(row.leadScore)
        : leadScore({ isUrgent: row.priority === 'urgent', serviceType: row.serviceType ?? '', source: row.source }),
    urgency: row.urgency,
    conversationId: row.conversationId,
    respondedAt: iso(row.respondedAt),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    customer: row.customerId
      ? { id: row.customerId, name: row.customerName ?? '', phone: row.customerPhone ?? '', email: row.customerEmail, address: row.customerAddress ?? '' }
      : null,
    workOrder: row.workOrderId ? { id: row.workOrderId, workOrderNumber: row.workOrderNumber ?? '', status: row.workOrderStatus ?? '' } : null,
    possibleMatch: row.possibleCustomerId
      ? {
          id: row.possibleCustomerId,
          name: row.possibleCustomerName ?? '',
          phone: row.possibleCustomerPhone ?? '',
          email: row.possibleCustomerEmail,
          address: row.possibleCustomerAddress ?? '',
          city: row.possibleCustomerCity ?? '',
          state: row.possibleCustomerState ?? '',
          zip: row.possibleCustomerZip,
        }
      : null,
  };
}

function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string })?.code === '23503';
}

export type LeadServiceDependencies = {
  db: Database;
  today: () => string;
  timeZone: string;
  /** The conversion writes a customer and a work order: those modules' repositories, given by app.ts. */
  customerRepository: RepositoryFactory<CustomerRepository>;
  workOrderRepository: RepositoryFactory<WorkOrderRepository>;
};

export function createLeadService(options: LeadServiceDependencies) {
  const { db, today, timeZone, customerRepository, workOrderRepository } = options;
  const repository = createLeadRepository(db);

  async function estimateLead(id: string): Promise<EstimateLead> {
    const row = await repository.findLead('estimate', id);
    if (!row) throw notFound();
    return toLead(row) as EstimateLead;
  }

  return {
    async list(query: z.output<typeof leadListQuerySchema>): Promise<LeadListResponse> {
      const { rows, total, totalCapped } = await repository.list(query.filter, query.search, query.page, query.pageSize);
      return { leads: rows.map(toLead), total, totalCapped, page: query.page, pageSize: query.pageSize };
    },

    /** Tab counts and the metrics of decision 012, computed from the data. */
    async stats(): Promise<LeadStats> {
      const { counts, metrics, chatLeads } = await repository.stats();
      const estimateRequestCount = Number(metrics.estimateRequests);
      const convertedCount = Number(metrics.converted);
      const seconds = metrics.averageResponseSeconds === null ? null : Number(metrics.averageResponseSeconds);
      return {
        counts: Object.fromEntries(leadFilters.map((filter) => [filter, Number(counts[filter])])) as Record<LeadFilter, number>,
        averageResponseHours: seconds === null ? null : Math.round((seconds / 3600) * 10) / 10,
        respondedCount: Number(metrics.responded),
        conversionRate: estimateRequestCount === 0 ? 0 : Math.round((convertedCount / estimateRequestCount) * 1000) / 10,
        convertedCount,
        estimateRequestCount,
        chatLeadCount: chatLeads,
      };
    },

    async detail(kind: 'estimate' | 'chat', id: string): Promise<LeadDetailResponse> {
      const row = await repository.findLead(kind, leadId(id));
      if (!row) throw notFound();
      const turns = row.conversationId ? await repository.conversation(row.conversationId, leadConversationLimit) : [];
      return { lead: toLead(row), conversation: turns.map((turn) => ({ ...turn, createdAt: turn.createdAt.toISOString() })) };
    },

    /** Any status, in any order (spec 000 section 4), but only over the version the user saw. */
    async changeStatus(id: string, status: LeadStatus, expectedUpdatedAt: string, actor: AuditActor): Promise<EstimateLead> {
      const key = leadId(id);
      const row = await withTransaction(db, async (tx) => {
        const leads = createLeadRepository(tx);
        const before = await leads.lockEstimateRequest(key);
        if (!before) return undefined;
        const after = await leads.updateStatusIfCurrent(key, status, expectedUpdatedAt);
        if (after && after.status !== before.status) {
          await recordAudit(tx, {
            actor,
            entityType: 'lead',
            entityId: key,
            entityLabel: after.name,
            action: 'status_changed',
            changes: diffFields(before, after, { only: ['status'] }),
          });
        }
        return after;
      });
      if (row) return estimateLead(key);
      const current = await repository.findLead('estimate', key);
      if (!current) throw notFound();
      throw new AppError('CONFLICT', leadMessages.conflict, { current: toLead(current) });
    },

    /** What the conversion dialog starts from: a customer with the same phone or e-mail, and the lead's job. */
    async proposal(id: string): Promise<LeadConversionProposal> {
      const lead = await repository.findEstimateRequest(leadId(id));
      if (!lead) throw notFound();
      const customers = customerRepository(db);
      const linked = lead.customerId ? await customers.findById(lead.customerId) : undefined;
      const matched = linked ?? (await customers.findByContact({ phone: lead.phone, email: lead.email }));
      const serviceType = lead.serviceType as EstimateServiceType;
      const serviceLabel = estimateServiceTypeLabels[serviceType] ?? lead.serviceType;
      const date = today();
      const preferredTime = lead.preferredTime as keyof typeof estimateTimePreferenceLabels | null;
      const notes = [
        `From the estimate request of ${lead.createdAt.toISOString().slice(0, 10)} (${leadSourceLabels[lead.source as LeadSource] ?? lead.source}).`,
        preferredTime ? `Preferred time: ${estimateTimePreferenceLabels[preferredTime] ?? preferredTime}.` : '',
        lead.preferredDate ? `Preferred date: ${lead.preferredDate}.` : '',
      ]
        .filter(Boolean)
        .join(' ');
      return {
        matchedCustomer: matched
          ? { id: matched.id, name: matched.name, type: matched.type as 'residential', phone: matched.phone, email: matched.email, address: matched.address, city: matched.city, state: matched.state, zip: matched.zip }
          : null,
        newCustomer: { name: lead.name, phone: lead.phone, email: lead.email, type: 'residential', ...splitLeadAddress(lead.address) },
        workOrder: {
          title: `${serviceLabel} for ${lead.name}`.slice(0, 200),
          serviceType: estimateToWorkOrderServiceType[serviceType] ?? 'repair',
          priority: leadPriorityToWorkOrderPriority(lead.priority),
          // A preferred date already past is today.
          serviceDate: lead.preferredDate && lead.preferredDate >= date ? lead.preferredDate : date,
          timePreference: estimateTimeToWorkOrderTime(lead.preferredTime),
          description: (lead.description?.trim() || `${serviceLabel} requested.`).slice(0, 5000),
          notes,
        },
      };
    },

    /**
     * One transaction: the request is locked, the customer found or created, the work order
     * created (pending, pointing back at the request) and the request marked converted. Anything
     * refused on the way leaves nothing behind. A second conversion waits on the lock and is refused.
     */
    async convert(id: string, values: ConversionValues, actor: AuditActor): Promise<LeadConversionResult> {
      const key = leadId(id);
      let result: { workOrder: { id: string; workOrderNumber: string }; customer: { id: string; name: string }; isNewCustomer: boolean };
      try {
        result = await withTransaction(db, async (tx) => {
          const leads = createLeadRepository(tx);
          const lead = await leads.lockEstimateRequest(key);
          if (!lead) throw notFound();
          if (lead.workflowStage !== null) throw new AppError('CONFLICT', leadMessages.alreadyConverted, { workOrderId: lead.workOrderId });

          const customers = customerRepository(tx);
          let customer: { id: string; name: string };
          const isNewCustomer = values.customer.mode === 'new';
          if (values.customer.mode === 'existing') {
            const existing = await customers.findById(values.customer.customerId);
            if (!existing) {
              throw new AppError('VALIDATION_FAILED', leadMessages.customerNotFound, [{ path: 'customer.customerId', message: leadMessages.customerNotFound }]);
            }
            customer = existing;
          } else {
            const { mode: _mode, ...customerValues } = values.customer;
            const created = await customers.insert(customerValues);
            await recordCustomerChange(tx, actor, 'created', undefined, created);
            customer = created;
          }

          const workOrders = workOrderRepository(tx);
          if (values.workOrder.technicianId && !(await workOrders.isActiveTechnician(values.workOrder.technicianId))) throw technicianUnavailable();
          const workOrder = await workOrders.insert({ ...newWorkOrder(customer.id, values.workOrder, timeZone), estimateRequestId: key });

          // The request's "text me" box becomes the customer's consent to texts (decision 021-a).
          if (lead.smsConsentAt) await recordFormSmsConsent(tx, customer.id, lead.smsConsentAt);
          const marked = await leads.markConverted(key, { customerId: customer.id, workOrderId: workOrder.id, status: convertedLeadStatus });
          if (!marked) throw new AppError('CONFLICT', leadMessages.alreadyConverted);
          await recordWorkOrderChange(tx, actor, 'created', undefined, workOrder);
          await recordAudit(tx, {
            actor,
            entityType: 'lead',
            entityId: key,
            entityLabel: marked.name,
            action: 'converted',
            changes: diffFields(lead, marked, { only: ['status', 'workflowStage', 'customerId', 'workOrderId'] }),
          });
          return {
            workOrder: { id: workOrder.id, workOrderNumber: workOrder.workOrderNumber },
            customer: { id: customer.id, name: customer.name },
            isNewCustomer,
          };
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw technicianUnavailable();
        throw error;
      }
      return { lead: await estimateLead(key), ...result };
    },
  };
}

export type LeadService = ReturnType<typeof createLeadService>;
