// First: zod must not probe for eval in the browser (the CSP forbids it).
import '#client/lib/zod-client.ts';
import {
  chatBookingResponseSchema,
  chatBookingSchema,
  chatMessages,
  chatReplySchema,
  type ChatBookingResponse,
  type ChatReply,
  type ChatRequest,
} from '#shared/chat.ts';
import { todayIn } from '#shared/dates.ts';
import { onlineBookingSchema, type OnlineBookingBooked, type OpenWindowsResponse, type OpenWindowText } from '#shared/booking.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';
import { company } from '#client/lib/company.ts';
import {
  bookingFields,
  emptyBookingValues,
  getChatState,
  newId,
  updateChat,
  type BookingErrors,
  type BookingField,
  type BookingValues,
  type ChatMessage,
} from './chat-store.ts';

// What the chat window does: send a message, open and close the Schedule Service form, submit a
// booking. Module-level (not tied to a component), so a reply that arrives after the visitor closed
// the window or moved to another page still lands in the conversation.

export const chatMessagesPath = '/api/public/chat/messages';
export const chatBookingsPath = '/api/public/chat/bookings';

function appendMessage(message: Omit<ChatMessage, 'id' | 'at'>): void {
  updateChat((current) => ({ ...current, messages: [...current.messages, { ...message, id: newId(), at: new Date().toISOString() }] }));
}

export function setChatInput(input: string): void {
  updateChat((current) => (current.input === input ? current : { ...current, input }));
}

/** Spec 000 section 4: the form opens when the reply's action is show_form or its category is scheduling. */
export function replyOpensForm(reply: Pick<ChatReply, 'action' | 'category'>): boolean {
  return reply.action === 'show_form' || reply.category === 'scheduling';
}

/** Sends what the visitor typed; empty or whitespace-only messages are not sent (spec 000 section 5). */
export async function sendChatMessage(text: string): Promise<void> {
  const message = text.trim();
  const before = getChatState();
  if (!message || before.isReplyPending || !before.sessionId) return;
  appendMessage({ sender: 'user', text: message });
  updateChat((current) => ({ ...current, input: '', isReplyPending: true }));
  // The name the visitor booked under in this conversation (spec 000 section 4); the server links the
  // session to its booking itself and never sends the browser a customer id.
  const customer = getChatState().customer;
  const knownCustomer = customer?.name ? { name: customer.name.slice(0, 120) } : undefined;
  const body: ChatRequest = { message, sessionId: before.sessionId, ...(knownCustomer ? { customer: knownCustomer } : {}) };
  let reply: ChatReply | undefined;
  try {
    const parsed = chatReplySchema.safeParse(await apiFetch<unknown>(chatMessagesPath, { method: 'POST', body }));
    if (parsed.success) reply = parsed.data;
  } catch {
    // Spec 000 section 8: any failure is answered with the 'call us' message below.
  }
  updateChat((current) => ({ ...current, isReplyPending: false }));
  if (!reply) {
    appendMessage({ sender: 'ai', text: chatMessages.webhookFailure(company.phone), category: 'error', urgency: 'low', action: 'none' });
    return;
  }
  appendMessage({ sender: 'ai', text: reply.message, category: reply.category, urgency: reply.urgency, action: reply.action });
  if (replyOpensForm(reply)) openBookingForm();
}

export function openBookingForm(): void {
  updateChat((current) => {
    if (current.isFormOpen) return current;
    const values = { ...current.booking.values };
    // The visitor we already know from an earlier booking: their name is filled in for them.
    if (!values.name && current.customer) values.name = current.customer.name;
    return { ...current, isFormOpen: true, booking: { ...current.booking, values, errors: {}, formError: undefined } };
  });
}

/** Cancel: the form closes and what was typed in it is discarded. */
export function cancelBookingForm(): void {
  lastAttempt = undefined;
  updateChat((current) => ({
    ...current,
    isFormOpen: false,
    booking: { values: emptyBookingValues, errors: {}, formError: undefined, isSubmitting: false },
  }));
}

/** Editing a field clears that field's error (spec 000 section 5). */
export function setBookingValue(field: BookingField, value: string): void {
  updateChat((current) => {
    const { [field]: _cleared, ...errors } = current.booking.errors;
    return { ...current, booking: { ...current.booking, values: { ...current.booking.values, [field]: value }, errors } };
  });
}

/** The ZIP code at the end of a one-line address ("12 Osprey Cove, Bluffton, SC 29910"), if it has one. */
export function zipOfAddress(address: string): string | undefined {
  return /\b(\d{5})(?:-\d{4})?\b(?!.*\b\d{5}\b)/.exec(address)?.[1];
}

/** The open arrival windows for the form's service type at the address's ZIP code (issue 21), or none. */
export async function fetchChatWindows(serviceType: string, zip: string, signal?: AbortSignal): Promise<OpenWindowText[]> {
  const answer = await apiFetch<OpenWindowsResponse>(`/api/public/booking/windows?serviceType=${encodeURIComponent(serviceType)}&zip=${encodeURIComponent(zip)}`, { signal });
  return answer.status === 'open' ? answer.windows.slice(0, 12) : [];
}

/**
 * Books the chosen open window (issue 21) through the booking page's route, with the chat's
 * session: checked again under a lock; taken meanwhile, the form says so and offers the open ones.
 */
async function submitWindowBooking(sessionId: string, values: BookingValues): Promise<{ firstInvalid?: BookingField } | undefined> {
  const [date = '', range = ''] = values.window.split(' ');
  const [start = '', end = ''] = range.split('-');
  const parsed = onlineBookingSchema.safeParse({ ...values, zip: zipOfAddress(values.address) ?? '', date, start, end, sessionId });
  if (!parsed.success) {
    const errors: BookingErrors = {};
    for (const issue of parsed.error.issues) {
      const path = String(issue.path[0]);
      const field = ['date', 'start', 'end', 'zip'].includes(path) ? 'window' : path;
      if (isBookingField(field)) errors[field] ??= issue.message;
    }
    updateChat((state) => ({ ...state, booking: { ...state.booking, errors, formError: undefined } }));
    return { firstInvalid: bookingFields.find((field) => errors[field]) };
  }
  const bodyText = JSON.stringify(parsed.data);
  const key = lastAttempt?.body === bodyText ? lastAttempt.key : newId();
  lastAttempt = { body: bodyText, key };
  updateChat((state) => ({ ...state, booking: { ...state.booking, errors: {}, formError: undefined, isSubmitting: true } }));
  let booked: OnlineBookingBooked;
  try {
    booked = await apiFetch<OnlineBookingBooked>('/api/public/booking', { method: 'POST', body: parsed.data, headers: { 'Idempotency-Key': key } });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
      lastAttempt = undefined;
      const errors = fieldErrorsFrom(error.details);
      // Taken meanwhile: the window is cleared and the form fetches the open ones again.
      const values = error.status === 409 ? { ...getChatState().booking.values, window: '' } : getChatState().booking.values;
      updateChat((state) => ({ ...state, booking: { ...state.booking, values, errors, formError: error.message, isSubmitting: false } }));
      return { firstInvalid: bookingFields.find((field) => errors[field]) };
    }
    updateChat((state) => ({ ...state, isFormOpen: false, booking: { ...state.booking, isSubmitting: false } }));
    appendMessage({ sender: 'ai', text: chatMessages.bookingFailure(company.phone), category: 'error', urgency: 'low', action: 'none' });
    return undefined;
  }
  const link = booked.visitPath ? ` To see, move or cancel it: ${new URL(booked.visitPath, window.location.origin).href}` : '';
  finishBooking(parsed.data.name, `${booked.message} Your reference: ${booked.workOrderNumber}.${link}`);
  return undefined;
}

/** A booking made: the form closes empty, the name is remembered, and the answer joins the conversation. */
function finishBooking(name: string, text: string): void {
  lastAttempt = undefined;
  updateChat((state) => ({
    ...state,
    isFormOpen: false,
    // Remembered: the name the visitor typed, not anything the server knows about stored customers.
    customer: { name },
    booking: { values: emptyBookingValues, errors: {}, formError: undefined, isSubmitting: false },
  }));
  appendMessage({ sender: 'ai', text, category: 'scheduling', urgency: 'low', action: 'none' });
}

/** The last submission that failed without an answer we can act on: a retry of the same data reuses its key. */
let lastAttempt: { body: string; key: string } | undefined;

const isBookingField = (value: unknown): value is BookingField => bookingFields.includes(value as BookingField);

/** The server's 400 details ([{ path, message }], path a name or a list) as field errors. */
function fieldErrorsFrom(details: unknown): BookingErrors {
  const errors: BookingErrors = {};
  if (!Array.isArray(details)) return errors;
  for (const detail of details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { path, message } = detail as { path?: unknown; message?: unknown };
    const field = Array.isArray(path) ? path[0] : typeof path === 'string' ? path.split('.')[0] : undefined;
    if (isBookingField(field) && typeof message === 'string') errors[field] ??= message;
  }
  return errors;
}

/**
 * Validates the Schedule Service form with the shared schema (the exact spec messages), then books.
 * Returns the first field with an error, for focus, when the form stays open with errors.
 */
export async function submitBooking(): Promise<{ firstInvalid?: BookingField } | undefined> {
  const current = getChatState();
  if (current.booking.isSubmitting || !current.sessionId) return undefined;
  if (current.booking.values.window) return submitWindowBooking(current.sessionId, current.booking.values);
  const parsed = chatBookingSchema(todayIn(company.timeZone)).safeParse({ ...current.booking.values, sessionId: current.sessionId });
  if (!parsed.success) {
    const errors: BookingErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (isBookingField(field)) errors[field] ??= issue.message;
    }
    updateChat((state) => ({ ...state, booking: { ...state.booking, errors, formError: undefined } }));
    return { firstInvalid: bookingFields.find((field) => errors[field]) };
  }

  const body = parsed.data;
  const bodyText = JSON.stringify(body);
  const key = lastAttempt?.body === bodyText ? lastAttempt.key : newId();
  lastAttempt = { body: bodyText, key };
  updateChat((state) => ({ ...state, booking: { ...state.booking, errors: {}, formError: undefined, isSubmitting: true } }));

  let response: ChatBookingResponse;
  try {
    const answer = await apiFetch<unknown>(chatBookingsPath, { method: 'POST', body, headers: { 'Idempotency-Key': key } });
    const checked = chatBookingResponseSchema.safeParse(answer);
    // A 2xx means the work order exists; an unexpected body still gets the spec's success wording.
    response = checked.success
      ? checked.data
      : {
          message: `Perfect! I've created your service request. Our team will contact you within 24 hours to confirm the appointment. You can also call us at ${company.phone} if you need immediate assistance.`,
          workOrderNumber: '',
        };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      // Rejected, nothing was created: the next attempt is a new submission.
      lastAttempt = undefined;
      const errors = fieldErrorsFrom(error.details);
      const hasFieldErrors = Object.keys(errors).length > 0;
      updateChat((state) => ({
        ...state,
        booking: { ...state.booking, errors, formError: hasFieldErrors ? undefined : error.message, isSubmitting: false },
      }));
      return { firstInvalid: bookingFields.find((field) => errors[field]) };
    }
    // Spec 000 section 4: the form closes on failure; what was typed is kept for a retry with the same key.
    updateChat((state) => ({ ...state, isFormOpen: false, booking: { ...state.booking, isSubmitting: false } }));
    appendMessage({ sender: 'ai', text: chatMessages.bookingFailure(company.phone), category: 'error', urgency: 'low', action: 'none' });
    return undefined;
  }

  finishBooking(body.name, response.message);
  return undefined;
}
