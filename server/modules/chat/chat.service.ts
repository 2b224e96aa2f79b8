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
import { minutesOfDay, onlineBookingMessages, timeOfDay, type OnlineBooking, type OnlineBookingBooked } from '#shared/booking.ts';
import type { WorkOrderServiceType } from '#shared/enums.ts';
import { notificationTypes } from '#shared/notifications.ts';
import { formatAppointmentDate, formatAppointmentWindow } from '#shared/messaging.ts';
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
import type { AvailabilityService } from '#server/modules/availability/index.ts';
import { durationHours, sqlLocalTimestamp } from '#server/modules/work-orders/index.ts';
import { createChatRepository } from './chat.repository.ts';

const serviceTypeLabels: Record<WorkOrderServiceType, string> = { repair: 'Repair', maintenance: 'Maintenance', installation: 'Installation', inspection: 'Inspection', ductwork: 'Ductwork' };

/** City and ZIP from a one-line address when it names a town we serve; the spec's defaults otherwise. */
function placeFrom(address: string): { city: string; zip: string | null } {
  const lower = address.toLowerCase();
  const town = serviceAreas.find((area) => lower.includes(area.name.toLowerCase()));
  const zip = /\b(\d{5})(?:-\d{4})?\b(?!.*\b\d{5}\b)/.exec(address)?.[1] ?? null;
  return { city: town?.name ?? 'Bluffton', zip };
}

/** A booking page's place: the town whose service area has the ZIP code the visitor gave. */
function placeOfZip(zip: string, address: string): { city: string; zip: string } {
  return { city: serviceAreas.find((area) => area.zipCodes.includes(zip))?.name ?? placeFrom(address).city, zip };
}

/**
 * One booking, everything decided before it is written: what the visitor typed, the lead's score
 * (the model is asked outside any transaction), the service date, and the ids of its customer,
 * work order and lead (made here, so a group's rows refer to each other without waiting for the
 * database's answers).
 */
/** What the visitor typed, from the chat's form or the booking page. */
type BookingInput = Pick<ChatBooking, 'name' | 'phone' | 'email' | 'address' | 'description' | 'smsConsent'> & {
  serviceType: WorkOrderServiceType;
  /** The chat's session (a chat booking); the booking page has none. */
  sessionId?: string;
  preferredDate?: string | null;
};

/** A booking page's visit: the claimed window's technician and times (company-local). */
type Appointment = { technicianId: string; date: string; startTime: string; endTime: string; zip: string; window: { start: string; end: string } };

type PlannedBooking = {
  input: BookingInput;
  /** Booked online into an open window (issue 21); a chat booking without one is a pending request. */
  appointment?: Appointment;
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
  /** Online booking's open windows and their claim under lock (issue 21); without it the booking page's bookings are refused. */
  availability?: AvailabilityService;
  /** Makes the customer's visit link in the booking's transaction (the visits module, passed in by app.ts); answers its token. */
  createVisitLink?: (executor: Tx, workOrderId: string, visitDate: string) => Promise<string>;
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
    // The booking page's visitor, or the chat (a group is one kind: online bookings are written alone).
    const actor = bookings.some((booking) => booking.appointment) ? systemActors.websiteVisitor : systemActors.chatAssistant;
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
      const { input, scored, appointment } = booking;
      const place = appointment ? placeOfZip(appointment.zip, input.address) : placeFrom(input.address);
      const label = serviceTypeLabels[input.serviceType];
      const title = appointment ? `${label} booked online` : `${label} request from website chat`;
      const newCustomer = { name: input.name, phone: input.phone, email: input.email, address: input.address, ...place, state: 'SC', type: 'residential' };
      return { booking, place, label, title, newCustomer, possibleCustomerId: matches[index]!, leadScore: Math.min(10, Math.max(1, scored.score)) };
    });

    await repository.insertCustomers(tx, rows.map(({ booking, newCustomer }) => ({ id: booking.customerId, ...newCustomer })));
    const numbers = await repository.insertWorkOrders(
      tx,
      rows.map(({ booking: { input, scored, serviceDate, workOrderId, customerId, idempotencyKey, appointment }, place, label, title, possibleCustomerId }) => ({
        id: workOrderId,
        customerId,
        title,
        description: input.description ?? (appointment ? `${label} booked through the website.` : `${label} requested through the website chat.`),
        serviceType: input.serviceType,
        serviceDate,
        priority: urgencyToPriority(scored.urgency),
        idempotencyKey,
        ...(appointment
          ? {
              status: 'scheduled',
              technicianId: appointment.technicianId,
              timePreference: minutesOfDay(appointment.startTime) < 12 * 60 ? 'morning' : 'afternoon',
              scheduledDate: sqlLocalTimestamp(appointment.date, appointment.startTime, timeZone),
              scheduledStartTime: appointment.startTime,
              scheduledEndTime: appointment.endTime,
              arrivalWindowStart: appointment.window.start,
              arrivalWindowEnd: appointment.window.end,
              estimatedDuration: durationHours(appointment.startTime, appointment.endTime),
            }
          : { status: 'pending', timePreference: 'anytime' }),
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
          // A booking page's lead has no chat: its conversation id names the lead, and has no messages.
          conversationId: input.sessionId ?? `web-booking-${leadId}`,
          leadScore,
          urgency: scored.urgency,
          serviceType: input.serviceType,
          status: 'converted',
          source: input.sessionId ? 'ai_chat' : 'website',
          notes: scored.reasons,
          workOrderId,
          possibleCustomerId,
        })),
      ),
      // The form's "text me" box: the new customer's consent to appointment texts (decision 021-a).
      ...rows.filter(({ booking }) => booking.input.smsConsent).map(({ booking }) => recordFormSmsConsent(tx, booking.customerId, now)),
      recordAudits(
        tx,
        rows.flatMap(({ booking, title, newCustomer, possibleCustomerId, leadScore }) => {
          const { input, scored, serviceDate, customerId, workOrderId, leadId, appointment } = booking;
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
                title: [null, title],
                serviceType: [null, input.serviceType],
                serviceDate: [null, serviceDate],
                priority: [null, urgencyToPriority(scored.urgency)],
                status: [null, appointment ? 'scheduled' : 'pending'],
                ...(appointment
                  ? { technicianId: [null, appointment.technicianId], scheduledStartTime: [null, appointment.startTime], scheduledEndTime: [null, appointment.endTime] }
                  : {}),
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
        rows.flatMap(({ booking, label }) => (booking.input.sessionId ? [{ booking, label, sessionId: booking.input.sessionId }] : [])).map(({ booking, label, sessionId }) => ({
          conversationId: sessionId,
          customerId: booking.customerId,
          userMessage: `Schedule Service form: ${label}, ${booking.input.address}${booking.input.preferredDate ? `, preferred ${booking.input.preferredDate}` : ''}`,
          aiResponse: answer(numberOf(booking)).message,
          intent: 'schedule_service',
        })),
      ),
      repository.insertNotifications(
        tx,
        rows.map(({ booking, label, possibleCustomerId }) => {
          const { appointment } = booking;
          const data = {
            customer_id: booking.customerId,
            work_order_id: booking.workOrderId,
            work_order_number: numberOf(booking),
            urgency: booking.scored.urgency,
            service_type: booking.input.serviceType,
            ...(possibleCustomerId ? { possible_customer_id: possibleCustomerId } : {}),
          };
          if (!appointment) {
            return {
              type: notificationTypes.newAiLead,
              title: `New chat booking: ${numberOf(booking)}`,
              message: `${booking.input.name} booked ${label.toLowerCase()} through the website chat (${booking.scored.urgency} urgency).`,
              data: { ...data, source: 'ai_chat' },
            };
          }
          return {
            type: notificationTypes.newOnlineBooking,
            title: `New online booking: ${numberOf(booking)}`,
            message: `${booking.input.name} booked ${label.toLowerCase()} online for ${appointment.date}, arriving ${appointment.startTime}.`,
            data: { ...data, source: 'website', link: `/admin/workorders/${booking.workOrderId}` },
          };
        }),
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

  /** Scores a booking's lead (the model, when one is configured, outside any transaction). */
  async function scoreBooking(description: string | null, serviceType: WorkOrderServiceType): Promise<PlannedBooking['scored']> {
    const textUrgency = detectUrgency(description ?? '', serviceType);
    return scoreLead
      ? await scoreLead({ description: description ?? '', serviceType, fallbackUrgency: textUrgency })
      : { score: fallbackLeadScore(textUrgency), urgency: textUrgency, reasons: 'Scored by urgency.' };
  }

  /** The booking page's answer for a booked window (and its replay): the number and the window only. */
  const bookedAnswer = (workOrderNumber: string, date: string, start: string, end: string): OnlineBookingBooked => ({
    status: 'booked',
    workOrderNumber,
    date,
    start,
    end,
    message: onlineBookingMessages.booked(formatAppointmentDate(date), formatAppointmentWindow(start, end), company.phone),
  });

  /** A window taken meanwhile: the open windows now, for the visitor to choose again. */
  class WindowTaken extends Error {}

  return {
    /**
     * Books a visit from the booking page into an open arrival window (issue 21): in one
     * transaction, the window is claimed under the technicians' locks (availability.claimWindow)
     * and the customer, the scheduled work order with its technician, the lead, the audit entries
     * and the staff notification are written (writeBookings). Confirmation goes out through
     * messaging (the work order's row trigger plans it). A window taken meanwhile answers the open
     * windows now (a 409 with them, for the page to offer). The same idempotency key again answers the first booking.
     */
    async bookWindow(input: OnlineBooking, idempotencyKey: string | undefined): Promise<OnlineBookingBooked & { isReplay: boolean }> {
      const { availability } = options;
      if (!availability) throw new AppError('INTERNAL', onlineBookingMessages.failure(company.phone));
      const replay = async () => {
        const existing = idempotencyKey ? await repository.findBookingByKey(idempotencyKey) : undefined;
        return existing?.arrivalWindowStart && existing.arrivalWindowEnd
          ? { ...bookedAnswer(existing.workOrderNumber, existing.serviceDate, existing.arrivalWindowStart.slice(0, 5), existing.arrivalWindowEnd.slice(0, 5)), isReplay: true }
          : undefined;
      };
      const earlier = await replay();
      if (earlier) return earlier;
      const taken = async (): Promise<AppError> => {
        const now = await availability.openWindows({ serviceType: input.serviceType, zip: input.zip });
        // Only a crafted request gets here with a ZIP code outside the area or a type booked by phone.
        if (now.status === 'outside_area') return new AppError('VALIDATION_FAILED', onlineBookingMessages.outsideArea(company.phone));
        if (now.status === 'not_online') return new AppError('VALIDATION_FAILED', onlineBookingMessages.notOnline(company.phone));
        return new AppError('CONFLICT', onlineBookingMessages.windowTaken, { windows: now.windows });
      };

      const { zip, date, start, end, ...contact } = input;
      const scored = await scoreBooking(contact.description, contact.serviceType);
      try {
        const booked = await withTransaction(db, async (tx) => {
          const claim = await availability.claimWindow(tx, { serviceType: input.serviceType, date, window: { start, end }, zip });
          if (!claim) throw new WindowTaken();
          const appointment = { technicianId: claim.technicianId, date, startTime: timeOfDay(claim.start), endTime: timeOfDay(claim.end), zip, window: { start, end } };
          const workOrderId = randomUUID();
          const [workOrderNumber] = await writeBookings(tx, [
            { input: contact, appointment, idempotencyKey, scored, serviceDate: date, customerId: randomUUID(), workOrderId, leadId: randomUUID() },
          ]);
          const token = options.createVisitLink ? await options.createVisitLink(tx, workOrderId, date) : undefined;
          return { workOrderNumber: workOrderNumber!, token };
        });
        return { ...bookedAnswer(booked.workOrderNumber, date, start, end), ...(booked.token ? { visitPath: `/visit/${booked.token}` } : {}), isReplay: false };
      } catch (error) {
        if (error instanceof WindowTaken) throw await taken();
        if (isUniqueViolation(error, 'work_orders_idempotency_key_key')) {
          const winner = await replay();
          if (winner) return winner;
        }
        log.error({ err: error }, 'online booking failed; nothing was saved');
        throw new AppError('INTERNAL', onlineBookingMessages.failure(company.phone));
      }
    },

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

      // Scoring calls the model (when one is configured): outside the transaction, never holding it open.
      const scored = await scoreBooking(input.description, input.serviceType);
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
