import { randomUUID } from 'node:crypto';
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
import { withTransaction, type Database, type Tx } from '#server/db/client.ts';
import { createGroupCommit } from '#server/lib/group-commit.ts';
import { recordAudits, systemActors } from '#server/modules/audit/index.ts';
import { recordFormSmsConsent } from '#server/modules/messaging/index.ts';
import { AppError } from '#server/errors.ts';
import type { RepositoryFactory } from '#server/db/client.ts';
import { sameContact, type CustomerRepository } from '#server/modules/customers/index.ts';
import { createChatRepository } from './chat.repository.ts';

const serviceTypeLabels = { repair: 'Repair', maintenance: 'Maintenance', installation: 'Installation', inspection: 'Inspection' } as const;

/** City and ZIP from a one-line address when it names a town we serve; the spec's defaults otherwise. */
function placeFrom(address: string): { city: string; zip: string | null } {
  const lower = address.toLowerCase();
  const town = serviceAreas.find((area) => lower.includes(area.name.toLowerCase()));
  const zip = /\b(\d{5})(?:-\d{4})?\b(?!.*\b\d{5}\b)/.exec(address)?.[1] ?? null;
  return { city: town?.name ?? 'Bluffton', zip };
}

/**
 * One booking, everything decided before it is written: what the visitor typed, the lead's score
 * (the model is asked outside any transaction), the service date, and the ids of its customer,
 * work order and lead (made here, so a group's rows refer to each other without waiting for the
 * database's answers).
 */
type PlannedBooking = {
  input: ChatBooking;
  idempotencyKey: string | undefined;
  scored: { score: number; urgency: ReturnType<typeof detectUrgency>; reasons: string };
  serviceDate: string;
  customerId: string;
  workOrderId: string;
  leadId: string;
};

/** The most bookings written in one transaction (decision 024-a): ten connections' worth, with room. */
const maxBookingGroup = 20;

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

  const answer = (workOrderNumber: string): ChatBookingResponse => ({
    message: chatMessages.bookingSuccess(workOrderNumber, company.phone),
    workOrderNumber,
  });

  /**
   * Writes a group of bookings in one transaction (the caller's), all or nothing, and answers each
   * one's work order number, in order. Per booking: a customer record from what the visitor typed,
   * the work order (at the typed address), the AI lead, the conversation row, the staff
   * notification, the audit entries, and the form's text consent when ticked. A stored customer
   * whose phone or e-mail matches is neither used, changed nor revealed: it is recorded as the work
   * order's and the lead's possible match for staff to confirm (decision 018-a).
   *
   * While the transaction is open it holds the embedded database (every other request waits), so
   * each step is one statement for the whole group (multi-row inserts), and the statements that need
   * no answer from each other are sent together (the driver runs them in order on its connection).
   */
  async function writeBookings(tx: Tx, bookings: PlannedBooking[]): Promise<string[]> {
    const actor = systemActors.chatAssistant;
    // Looked up only to tell staff; a booking never lands on, or changes, a stored customer. Before
    // the inserts, so no new customer is its own possible match. A group is written as if its
    // bookings came one after another: with no stored match, an earlier booking of the group with
    // the same contact is the match, as it would have been once stored (decision 024-a).
    const stored = await repository.findCustomerIdsByContacts(tx, bookings.map(({ input }) => ({ phone: input.phone, email: input.email })));
    const matches = bookings.map((booking, index) => {
      const earlier = bookings.slice(0, index).find(({ input }) => sameContact(booking.input, input));
      return stored[index] ?? earlier?.customerId ?? null;
    });
    const rows = bookings.map((booking, index) => {
      const { input, scored } = booking;
      const place = placeFrom(input.address);
      const label = serviceTypeLabels[input.serviceType];
      const newCustomer = { name: input.name, phone: input.phone, email: input.email, address: input.address, ...place, state: 'SC', type: 'residential' };
      return { booking, place, label, newCustomer, possibleCustomerId: matches[index]!, leadScore: Math.min(10, Math.max(1, scored.score)) };
    });

    await repository.insertCustomers(tx, rows.map(({ booking, newCustomer }) => ({ id: booking.customerId, ...newCustomer })));
    const numbers = await repository.insertWorkOrders(
      tx,
      rows.map(({ booking: { input, scored, serviceDate, workOrderId, customerId, idempotencyKey }, place, label, possibleCustomerId }) => ({
        id: workOrderId,
        customerId,
        title: `${label} request from website chat`,
        description: input.description ?? `${label} requested through the website chat.`,
        serviceType: input.serviceType,
        serviceDate,
        timePreference: 'anytime',
        priority: urgencyToPriority(scored.urgency),
        status: 'pending',
        idempotencyKey,
        serviceAddress: input.address,
        serviceCity: place.city,
        serviceState: 'SC',
        serviceZip: place.zip,
        possibleCustomerId,
      })),
    );
    const numberOf = (booking: PlannedBooking) => numbers.get(booking.workOrderId)!;
    const now = new Date();
    // The rest needs nothing from each other (the ids are made here), so it goes in one round trip.
    await Promise.all([
      repository.insertLeads(
        tx,
        rows.map(({ booking: { input, scored, leadId, customerId, workOrderId }, leadScore, possibleCustomerId }) => ({
          id: leadId,
          customerId,
          conversationId: input.sessionId,
          leadScore,
          urgency: scored.urgency,
          serviceType: input.serviceType,
          status: 'converted',
          source: 'ai_chat',
          notes: scored.reasons,
          workOrderId,
          possibleCustomerId,
        })),
      ),
      // The form's "text me" box: the new customer's consent to appointment texts (decision 021-a).
      ...rows.filter(({ booking }) => booking.input.smsConsent).map(({ booking }) => recordFormSmsConsent(tx, booking.customerId, now)),
      recordAudits(
        tx,
        rows.flatMap(({ booking, label, newCustomer, possibleCustomerId, leadScore }) => {
          const { input, scored, serviceDate, customerId, workOrderId, leadId } = booking;
          const possibleMatch: { possibleCustomerId?: [null, string] } = possibleCustomerId ? { possibleCustomerId: [null, possibleCustomerId] } : {};
          return [
            {
              actor,
              entityType: 'customer',
              entityId: customerId,
              entityLabel: input.name,
              action: 'created',
              changes: Object.fromEntries(Object.entries(newCustomer).filter(([, value]) => value !== null).map(([field, value]) => [field, [null, value]])),
            },
            {
              actor,
              entityType: 'work_order',
              entityId: workOrderId,
              entityLabel: numberOf(booking),
              action: 'created',
              changes: {
                customerId: [null, customerId],
                title: [null, `${label} request from website chat`],
                serviceType: [null, input.serviceType],
                serviceDate: [null, serviceDate],
                priority: [null, urgencyToPriority(scored.urgency)],
                status: [null, 'pending'],
                serviceAddress: [null, input.address],
                ...possibleMatch,
              },
            },
            {
              actor,
              entityType: 'chat_lead',
              entityId: leadId,
              entityLabel: input.name,
              action: 'created',
              changes: { leadScore: [null, leadScore], urgency: [null, scored.urgency], status: [null, 'converted'], workOrderId: [null, workOrderId], ...possibleMatch },
            },
          ] satisfies Parameters<typeof recordAudits>[1];
        }),
      ),
      repository.insertConversations(
        tx,
        rows.map(({ booking, label }) => ({
          conversationId: booking.input.sessionId,
          customerId: booking.customerId,
          userMessage: `Schedule Service form: ${label}, ${booking.input.address}${booking.input.preferredDate ? `, preferred ${booking.input.preferredDate}` : ''}`,
          aiResponse: answer(numberOf(booking)).message,
          intent: 'schedule_service',
        })),
      ),
      repository.insertNotifications(
        tx,
        rows.map(({ booking, label, possibleCustomerId }) => ({
          type: 'new_ai_lead',
          title: `New chat booking: ${numberOf(booking)}`,
          message: `${booking.input.name} booked ${label.toLowerCase()} through the website chat (${booking.scored.urgency} urgency).`,
          data: {
            customer_id: booking.customerId,
            work_order_id: booking.workOrderId,
            work_order_number: numberOf(booking),
            urgency: booking.scored.urgency,
            service_type: booking.input.serviceType,
            source: 'ai_chat',
            ...(possibleCustomerId ? { possible_customer_id: possibleCustomerId } : {}),
          },
        })),
      ),
    ]);
    return bookings.map(numberOf);
  }

  /**
   * Bookings that arrive while others are being written wait and are written together, in one
   * transaction (group commit, decision 024-a); if that transaction fails, each of its bookings is
   * written again alone, so each gets its own answer or its own error and one's refusal loses no
   * other booking.
   */
  const writeBooking = createGroupCommit<PlannedBooking, string>({
    write: (bookings) => withTransaction(db, (tx) => writeBookings(tx, bookings)),
    maxGroupSize: maxBookingGroup,
    onGroupFailed: (error, size) => log.info({ err: error, size }, 'a group of chat bookings failed together; writing each alone'),
  });

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
      await repository.insertConversations(db, [
        {
          conversationId: request.sessionId,
          customerId: await repository.customerForSession(request.sessionId),
          userMessage: request.message.trim(),
          aiResponse: reply.message,
          intent: reply.intent,
        },
      ]);
      return reply;
    },

    /**
     * Books a visit from the chat's form, all or nothing (writeBookings). The same idempotency key
     * again returns the first booking's answer, which names nothing but the work order.
     */
    async book(input: ChatBooking, idempotencyKey: string | undefined): Promise<ChatBookingResponse & { isReplay: boolean }> {
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

      try {
        const workOrderNumber = await writeBooking({
          input,
          idempotencyKey,
          scored,
          serviceDate,
          customerId: randomUUID(),
          workOrderId: randomUUID(),
          leadId: randomUUID(),
        });
        return { ...answer(workOrderNumber), isReplay: false };
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
