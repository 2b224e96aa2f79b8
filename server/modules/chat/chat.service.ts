import type { FastifyBaseLogger } from 'fastify';
import {
  chatMessages,
  detectSafetyHazard,
  detectUrgency,
  fallbackLeadScore,
  suggestedServiceDate,
  urgencyToPriority,
  type ChatBooking,
  type ChatBookingResponse,
  type ChatReply,
  type ChatRequest,
} from '#shared/chat.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { todayIn } from '#shared/dates.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import type { ChatResponder, LeadScorer } from '#server/adapters/chat/chat-responder.ts';
import { safetyReply } from '#server/adapters/chat/rule-based-responder.ts';
import type { Database } from '#server/db/client.ts';
import { recordAudit, systemActors } from '#server/modules/audit/audit.service.ts';
import { AppError } from '#server/errors.ts';
import { createChatRepository } from './chat.repository.ts';

const serviceTypeLabels = { repair: 'Repair', maintenance: 'Maintenance', installation: 'Installation', inspection: 'Inspection' } as const;

/** City and ZIP from a one-line address when it names a town we serve; the spec's defaults otherwise. */
function placeFrom(address: string): { city: string; zip: string | null } {
  const lower = address.toLowerCase();
  const town = serviceAreas.find((area) => lower.includes(area.name.toLowerCase()));
  const zip = /\b(\d{5})(?:-\d{4})?\b(?!.*\b\d{5}\b)/.exec(address)?.[1] ?? null;
  return { city: town?.name ?? 'Bluffton', zip };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { code, constraint: name } = cause as { code?: string; constraint?: string };
  return code === '23505' && (name === undefined || name === constraint);
}

export function createChatService(options: {
  db: Database;
  responder: ChatResponder;
  scoreLead: LeadScorer | undefined;
  company: CompanyProfile;
  timeZone: string;
  log: FastifyBaseLogger;
}) {
  const { db, responder, scoreLead, company, timeZone, log } = options;
  const repository = createChatRepository(db);

  return {
    /** Answers one message (safety scripts first, whatever responder is configured) and stores the exchange. */
    async reply(request: ChatRequest): Promise<ChatReply> {
      const hazard = detectSafetyHazard(request.message);
      const reply = hazard
        ? safetyReply(hazard, company)
        : await responder.reply({
            message: request.message.trim(),
            sessionId: request.sessionId,
            customerName: request.customer?.name,
            phone: undefined,
            history: await repository.recentTurns(request.sessionId),
          });
      await repository.insertConversation(db, {
        conversationId: request.sessionId,
        customerId: await repository.customerForSession(request.sessionId),
        userMessage: request.message.trim(),
        aiResponse: reply.message,
        intent: reply.intent,
      });
      return reply;
    },

    /**
     * Books a visit from the chat's form, all or nothing: finds the customer by phone or e-mail (or
     * creates one), then the work order, the AI lead, the conversation row and the staff
     * notification, in one transaction. The same idempotency key again returns the first booking.
     */
    async book(input: ChatBooking, idempotencyKey: string | undefined): Promise<ChatBookingResponse & { isReplay: boolean }> {
      const replay = async () => {
        const existing = idempotencyKey ? await repository.findBookingByKey(idempotencyKey) : undefined;
        return existing
          ? {
              message: chatMessages.bookingSuccess(existing.workOrderNumber, company.phone),
              workOrderNumber: existing.workOrderNumber,
              customer: { id: existing.customerId, name: existing.customerName },
              isReplay: true,
            }
          : undefined;
      };
      const earlier = await replay();
      if (earlier) return earlier;

      const textUrgency = detectUrgency(`${input.description ?? ''}`, input.serviceType);
      // Scoring calls the model (when one is configured): outside the transaction, never holding it open.
      const scored = scoreLead
        ? await scoreLead({ description: input.description ?? '', serviceType: input.serviceType, fallbackUrgency: textUrgency })
        : { score: fallbackLeadScore(textUrgency), urgency: textUrgency, reasons: 'Scored by urgency.' };
      const serviceDate = input.preferredDate ?? suggestedServiceDate(scored.urgency, todayIn(timeZone));
      const label = serviceTypeLabels[input.serviceType];

      try {
        const booked = await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Database;
          const actor = systemActors.chatAssistant;
          const existing = await repository.findCustomerByContact(tx, { phone: input.phone, email: input.email });
          const newCustomer = {
            name: input.name,
            phone: input.phone,
            email: input.email,
            address: input.address,
            ...placeFrom(input.address),
            state: 'SC',
            type: 'residential',
          };
          const customer = existing ?? (await repository.insertCustomer(tx, newCustomer));
          if (!existing) {
            await recordAudit(tx, {
              actor,
              entityType: 'customer',
              entityId: customer.id,
              entityLabel: customer.name,
              action: 'created',
              changes: Object.fromEntries(Object.entries(newCustomer).filter(([, value]) => value !== null).map(([field, value]) => [field, [null, value]])),
            });
          }
          const workOrder = await repository.insertWorkOrder(tx, {
            customerId: customer.id,
            title: `${label} request from website chat`,
            description: input.description ?? `${label} requested through the website chat.`,
            serviceType: input.serviceType,
            serviceDate,
            timePreference: 'anytime',
            priority: urgencyToPriority(scored.urgency),
            status: 'pending',
            idempotencyKey,
          });
          await recordAudit(tx, {
            actor,
            entityType: 'work_order',
            entityId: workOrder.id,
            entityLabel: workOrder.workOrderNumber,
            action: 'created',
            changes: {
              customerId: [null, customer.id],
              title: [null, `${label} request from website chat`],
              serviceType: [null, input.serviceType],
              serviceDate: [null, serviceDate],
              priority: [null, urgencyToPriority(scored.urgency)],
              status: [null, 'pending'],
            },
          });
          const chatLead = await repository.insertLead(tx, {
            customerId: customer.id,
            conversationId: input.sessionId,
            leadScore: Math.min(10, Math.max(1, scored.score)),
            urgency: scored.urgency,
            serviceType: input.serviceType,
            status: 'converted',
            source: 'ai_chat',
            notes: scored.reasons,
            workOrderId: workOrder.id,
          });
          await recordAudit(tx, {
            actor,
            entityType: 'chat_lead',
            entityId: chatLead.id,
            entityLabel: input.name,
            action: 'created',
            changes: { leadScore: [null, chatLead.leadScore], urgency: [null, scored.urgency], status: [null, 'converted'], workOrderId: [null, workOrder.id] },
          });
          const message = chatMessages.bookingSuccess(workOrder.workOrderNumber, company.phone);
          await repository.insertConversation(tx, {
            conversationId: input.sessionId,
            customerId: customer.id,
            userMessage: `Schedule Service form: ${label}, ${input.address}${input.preferredDate ? `, preferred ${input.preferredDate}` : ''}`,
            aiResponse: message,
            intent: 'schedule_service',
          });
          await repository.insertNotification(tx, {
            type: 'new_ai_lead',
            title: `New chat booking: ${workOrder.workOrderNumber}`,
            message: `${input.name} booked ${label.toLowerCase()} through the website chat (${scored.urgency} urgency).`,
            data: {
              customer_id: customer.id,
              work_order_id: workOrder.id,
              work_order_number: workOrder.workOrderNumber,
              urgency: scored.urgency,
              service_type: input.serviceType,
              source: 'ai_chat',
            },
          });
          return { message, workOrderNumber: workOrder.workOrderNumber, customer };
        });
        return { ...booked, isReplay: false };
      } catch (error) {
        // Two submissions with one key racing: the loser returns the winner's booking.
        if (isUniqueViolation(error, 'work_orders_idempotency_key_key')) {
          const winner = await replay();
          if (winner) return winner;
        }
        log.error({ err: error }, 'chat booking failed; nothing was saved');
        throw new AppError('INTERNAL', chatMessages.bookingFailure(company.phone));
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
