import {
  customerMatchAuditActions,
  customerMatchMessages,
  type CustomerMatchDecision,
  type CustomerMatchResolution,
} from '#shared/customer-match.ts';
import { leadMessages } from '#shared/lead.ts';
import { workOrderMessages } from '#shared/work-order.ts';
import { withTransaction, type Database, type RepositoryFactory } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { recordCustomerChange } from '#server/modules/customers/index.ts';
import { carryFormSmsConsent } from '#server/modules/messaging/index.ts';
import { recordWorkOrderChange, toWorkOrder, type WorkOrderRepository } from '#server/modules/work-orders/index.ts';
import { createCustomerMatchRepository, type AiLeadRow } from './customer-match.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';


/** Where staff made the choice: the work order's detail screen or the leads screen. */
export type CustomerMatchTarget = { kind: 'work_order' | 'chat_lead'; id: string };

const sameVersion = (stored: Date, expectedUpdatedAt: string) => stored.getTime() === new Date(expectedUpdatedAt).getTime();

const alreadyResolved = () => new AppError('CONFLICT', customerMatchMessages.alreadyResolved, { reason: 'match_resolved' });

/**
 * "Same customer" / "New customer" on a chat booking's possible match (decision 018-a), all in one
 * transaction with its activity-log entries. The stored customer's own fields are never written.
 */
export function createCustomerMatchService(options: { db: Database; workOrderRepository: RepositoryFactory<WorkOrderRepository> }) {
  const { db, workOrderRepository } = options;

  return {
    async resolve(target: CustomerMatchTarget, decision: CustomerMatchDecision, expectedUpdatedAt: string, actor: AuditActor): Promise<CustomerMatchResolution> {
      const notFound = () => new AppError('NOT_FOUND', target.kind === 'work_order' ? workOrderMessages.notFoundApi : leadMessages.notFound);
      if (!isUuid(target.id)) throw notFound();
      const id = target.id.toLowerCase();

      return withTransaction(db, async (tx) => {
        const matches = createCustomerMatchRepository(tx);
        const workOrders = workOrderRepository(tx);

        // One lock order whichever screen asked (work order, then its leads), so two choices cannot deadlock.
        let leads: AiLeadRow[];
        let workOrder;
        if (target.kind === 'work_order') {
          workOrder = await workOrders.lockById(id);
          if (!workOrder) throw notFound();
          if (!sameVersion(workOrder.updatedAt, expectedUpdatedAt)) {
            throw new AppError('CONFLICT', workOrderMessages.conflict, { current: toWorkOrder(workOrder) });
          }
          leads = await matches.lockLeadsOfWorkOrder(id);
        } else {
          const unlocked = await matches.findLead(id);
          if (!unlocked) throw notFound();
          workOrder = unlocked.workOrderId ? await workOrders.lockById(unlocked.workOrderId) : undefined;
          const lead = await matches.lockLead(id);
          if (!lead) throw notFound();
          if (!sameVersion(lead.updatedAt, expectedUpdatedAt)) throw new AppError('CONFLICT', leadMessages.conflict);
          leads = [lead];
        }

        const matchedId = workOrder?.possibleCustomerId ?? leads.find((lead) => lead.possibleCustomerId)?.possibleCustomerId ?? null;
        if (!matchedId) throw alreadyResolved();
        const bookedCustomerId = workOrder?.customerId ?? leads[0]?.customerId ?? null;
        const action = customerMatchAuditActions[decision];
        const moveTo = decision === 'same' ? matchedId : undefined;

        if (workOrder) {
          const after = await matches.setWorkOrderCustomer(workOrder.id, { ...(moveTo ? { customerId: moveTo } : {}), possibleCustomerId: null });
          await recordWorkOrderChange(tx, actor, action, workOrder, after);
        }
        for (const lead of leads) {
          const moves = moveTo !== undefined && lead.customerId !== moveTo;
          if (!lead.possibleCustomerId && !moves) continue;
          await matches.updateLead(lead.id, { ...(moveTo ? { customerId: moveTo } : {}), possibleCustomerId: null });
          await recordAudit(tx, {
            actor,
            entityType: 'chat_lead',
            entityId: lead.id,
            entityLabel: workOrder?.workOrderNumber ?? null,
            action,
            changes: {
              ...(moves ? { customerId: [lead.customerId, moveTo] } : {}),
              possibleCustomerId: [lead.possibleCustomerId, null],
            },
          });
          if (moves && lead.customerId) await matches.moveConversation(lead.conversationId, lead.customerId, moveTo);
        }

        // The record the booking made from what the visitor typed goes when nothing else needs it.
        let removedCustomerId: string | null = null;
        if (moveTo && bookedCustomerId && bookedCustomerId !== moveTo) {
          // The form's "text me" box goes with the booking (decision 021-a).
          await carryFormSmsConsent(tx, bookedCustomerId, moveTo);
          const booked = await matches.lockCustomer(bookedCustomerId);
          if (booked && !(await matches.isReferenced(bookedCustomerId))) {
            await matches.deleteCustomer(bookedCustomerId);
            await recordCustomerChange(tx, actor, 'deleted', booked, undefined);
            removedCustomerId = bookedCustomerId;
          }
        }

        return {
          decision,
          customerId: moveTo ?? bookedCustomerId ?? matchedId,
          workOrderId: workOrder?.id ?? null,
          leadId: target.kind === 'chat_lead' ? id : (leads[0]?.id ?? null),
          removedCustomerId,
        };
      });
    },
  };
}

export type CustomerMatchService = ReturnType<typeof createCustomerMatchService>;
