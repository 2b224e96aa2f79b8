import { useSyncExternalStore } from 'react';

// The chat widget's state, outside React so it survives page navigation (the public layout keeps
// the bubble mounted, and a reply or booking still lands when the window was closed meanwhile) and,
// through sessionStorage, a reload in the same tab. Deliberately tiny and dependency-free: the
// always-present bubble imports it; the window's code (schemas, API calls) loads only on intent.

export const chatStorageKey = 'hvac-chat-v1';
/** Older messages are dropped from what is kept in the browser beyond this many. */
const maxKeptMessages = 200;

export type ChatSender = 'ai' | 'user';
export type ChatMessage = {
  id: string;
  sender: ChatSender;
  text: string;
  /** ISO timestamp. */
  at: string;
  category?: string;
  urgency?: string;
  action?: string;
};
/** The visitor as they named themselves in this conversation's booking (no server ids). */
export type ChatCustomer = { name: string };

/** `smsConsent` is the "text me" box: 'true' when ticked, '' when not. */
/** `window`: an open arrival window chosen (issue 21), as 'YYYY-MM-DD HH:MM-HH:MM'; empty for a request staff confirm by phone. */
export const bookingFields = ['name', 'phone', 'email', 'address', 'preferredDate', 'serviceType', 'window', 'description', 'smsConsent'] as const;
export type BookingField = (typeof bookingFields)[number];
export type BookingValues = Record<BookingField, string>;
export type BookingErrors = Partial<Record<BookingField, string>>;

export type ChatState = {
  /** False until the browser's stored conversation was read (after mount; never while prerendering). */
  isHydrated: boolean;
  sessionId: string;
  messages: readonly ChatMessage[];
  customer: ChatCustomer | null;
  isOpen: boolean;
  isFormOpen: boolean;
  /** What is typed in the message box (kept across pages, not across reloads). */
  input: string;
  isReplyPending: boolean;
  booking: { values: BookingValues; errors: BookingErrors; formError?: string; isSubmitting: boolean };
};

export const emptyBookingValues: BookingValues = {
  name: '',
  phone: '',
  email: '',
  address: '',
  preferredDate: '',
  serviceType: '',
  window: '',
  description: '',
  smsConsent: '',
};

const initialState: ChatState = {
  isHydrated: false,
  sessionId: '',
  messages: [],
  customer: null,
  isOpen: false,
  isFormOpen: false,
  input: '',
  isReplyPending: false,
  booking: { values: emptyBookingValues, errors: {}, isSubmitting: false },
};

let state: ChatState = initialState;
const listeners = new Set<() => void>();

export function getChatState(): ChatState {
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updateChat(update: (current: ChatState) => ChatState): void {
  const next = update(state);
  if (next === state) return;
  const mustPersist =
    next.isHydrated &&
    (next.messages !== state.messages ||
      next.sessionId !== state.sessionId ||
      next.customer !== state.customer ||
      next.isOpen !== state.isOpen ||
      next.isFormOpen !== state.isFormOpen);
  state = next;
  if (mustPersist) persist(next);
  for (const listener of listeners) listener();
}

/** The chat state; the server snapshot (prerendering, hydration) is always the closed, empty widget. */
export function useChatState(): ChatState {
  return useSyncExternalStore(subscribe, getChatState, () => initialState);
}

export function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

export function openChat(): void {
  updateChat((current) => (current.isOpen ? current : { ...current, isOpen: true }));
}

export function closeChat(): void {
  updateChat((current) => (current.isOpen ? { ...current, isOpen: false } : current));
}

/** Reads the conversation kept in this browser tab. Call after mount; later calls do nothing. */
export function hydrateChat(): void {
  if (state.isHydrated || typeof window === 'undefined') return;
  const stored = readStored();
  updateChat((current) => ({
    ...current,
    isHydrated: true,
    sessionId: stored?.sessionId ?? newId(),
    messages: stored?.messages ?? current.messages,
    customer: stored?.customer ?? current.customer,
    isOpen: stored?.isOpen ?? current.isOpen,
    isFormOpen: stored?.isFormOpen ?? current.isFormOpen,
  }));
}

type StoredChat = Pick<ChatState, 'sessionId' | 'messages' | 'customer' | 'isOpen' | 'isFormOpen'>;

function persist(current: ChatState): void {
  const stored: StoredChat = {
    sessionId: current.sessionId,
    messages: current.messages.slice(-maxKeptMessages),
    customer: current.customer,
    isOpen: current.isOpen,
    isFormOpen: current.isFormOpen,
  };
  try {
    window.sessionStorage.setItem(chatStorageKey, JSON.stringify(stored));
  } catch {
    // Storage disabled or full: the chat still works for this page view.
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown) => (typeof value === 'string' ? value : undefined);

function readStored(): StoredChat | undefined {
  let raw: unknown;
  try {
    const text = window.sessionStorage.getItem(chatStorageKey);
    if (!text) return undefined;
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || typeof raw.sessionId !== 'string' || !/^[\w-]{8,100}$/.test(raw.sessionId)) return undefined;
  const messages: ChatMessage[] = [];
  for (const item of Array.isArray(raw.messages) ? raw.messages : []) {
    if (!isRecord(item) || typeof item.id !== 'string' || typeof item.text !== 'string' || typeof item.at !== 'string') continue;
    if (item.sender !== 'ai' && item.sender !== 'user') continue;
    messages.push({
      id: item.id,
      sender: item.sender,
      text: item.text,
      at: item.at,
      category: optionalString(item.category),
      urgency: optionalString(item.urgency),
      action: optionalString(item.action),
    });
  }
  const customer =
    isRecord(raw.customer) && typeof raw.customer.name === 'string' ? { name: raw.customer.name.slice(0, 120) } : null;
  return { sessionId: raw.sessionId, messages, customer, isOpen: raw.isOpen === true, isFormOpen: raw.isFormOpen === true };
}
