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
import { withTransaction, type Database } from '#server/db/client.ts';
import { recordAudits, systemActors } from '#server/modules/audit/index.ts';
import { recordFormSmsConsent } from '#server/modules/messaging/index.ts';
import { AppError } from '#server/errors.ts';
import type { RepositoryFactory } from '#server/db/client.ts';
import type { CustomerRepository } from '#server/modules/customers/index.ts';
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
  /** The customers module's repository factory, built by app.ts (a module never builds another's). */
  customerRepository: RepositoryFactory<CustomerRepository>;
}) {
  const { db, responder, scoreLead, company, timeZone, log } = options;
  const repository = createChatRepository(db, options.customerRepository);

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
     * Books a visit from the chat's form, all or nothing: a customer record from what the visitor
     * typed, the work order (at the typed address), the AI lead, the conversation row and the staff
     * notification, in one transaction. A stored customer whose phone or e-mail matches is neither
     * used, changed nor revealed: it is recorded as the work order's and the lead's possible match
     * for staff to confirm (decision 018-a). The same idempotency key again returns the first
     * booking's answer, which names nothing but the work order.
     */
    async book(input: ChatBooking, idempotencyKey: string | undefined): Promise<ChatBookingResponse & { isReplay: boolean }> {
      const answer = (workOrderNumber: string): ChatBookingResponse => ({
        message: chatMessages.bookingSuccess(workOrderNumber, company.phone),
        workOrderNumber,
      });
      const replay = async () => {
        const existing = idempotencyKey ? await repository.findBookingByKey(idempotencyKey) : undefined;
        return existing ? { ...answer(existing.workOrderNumber), isReplay: true } : undefined;
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
        const booked = await withTransaction(db, async (tx) => {
          // While the transaction is open it holds the embedded database (every other request
          // waits), so it makes five round trips, not nine: the last statements, which need no
          // answer from each other, go together (the driver runs them in order on its connection),
          // and the three audit entries are one insert.
          const actor = systemActors.chatAssistant;
          const place = placeFrom(input.address);
          const newCustomer = {
            name: input.name,
            phone: input.phone,
            email: input.email,
            address: input.address,
            ...place,
            state: 'SC',
            type: 'residential',
          };
          // Looked up only to tell staff; the booking never lands on, or changes, a stored customer.
          // Before the insert, so the new customer is never its own possible match.
          const possibleMatch = await repository.findCustomerByContact(tx, { phone: input.phone, email: input.email });
          const customer = await repository.insertCustomer(tx, newCustomer);
          const serviceAddress = { serviceAddress: input.address, serviceCity: place.city, serviceState: 'SC', serviceZip: place.zip };
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
            ...serviceAddress,
            possibleCustomerId: possibleMatch?.id ?? null,
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
            possibleCustomerId: possibleMatch?.id ?? null,
          });
          const { message } = answer(workOrder.workOrderNumber);
          await Promise.all([
            // The form's "text me" box: the new customer's consent to appointment texts (decision 021-a).
            input.smsConsent ? recordFormSmsConsent(tx, customer.id, new Date()) : undefined,
            recordAudits(tx, [
              {
                actor,
                entityType: 'customer',
                entityId: customer.id,
                entityLabel: customer.name,
                action: 'created',
                changes: Object.fromEntries(Object.entries(newCustomer).filter(([, value]) => value !== null).map(([field, value]) => [field, [null, value]])),
              },
              {
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
                  serviceAddress: [null, input.address],
                  ...(possibleMatch ? { possibleCustomerId: [null, possibleMatch.id] } : {}),
                },
              },
              {
                actor,
                entityType: 'chat_lead',
                entityId: chatLead.id,
                entityLabel: input.name,
                action: 'created',
                changes: {
                  leadScore: [null, chatLead.leadScore],
                  urgency: [null, scored.urgency],
                  status: [null, 'converted'],
                  workOrderId: [null, workOrder.id],
                  ...(possibleMatch ? { possibleCustomerId: [null, possibleMatch.id] } : {}),
                },
              },
            ]),
            repository.insertConversation(tx, {
              conversationId: input.sessionId,
              customerId: customer.id,
              userMessage: `Schedule Service form: ${label}, ${input.address}${input.preferredDate ? `, preferred ${input.preferredDate}` : ''}`,
              aiResponse: message,
              intent: 'schedule_service',
            }),
            repository.insertNotification(tx, {
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
                ...(possibleMatch ? { possible_customer_id: possibleMatch.id } : {}),
              },
            }),
          ]);
          return answer(workOrder.workOrderNumber);
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
