// First: zod must not probe for eval in the browser (the CSP forbids it).
import '#client/lib/zod-client.ts';
import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type FormEvent, type KeyboardEvent } from 'react';
import { chatMessageMaxLength, chatMessages, quickQuestions } from '#shared/chat.ts';
import { telHref } from '#shared/company-profile.ts';
import { company } from '#client/lib/company.ts';
import { openBookingForm, sendChatMessage, setChatInput } from './chat-actions.ts';
import { chatPanelClass, fullScreenChatQuery } from './chat-layout.ts';
import { closeChat, useChatState } from './chat-store.ts';
import { AssistantAvatar, MessageItem, PhoneIcon } from './chat-message.tsx';
import { ScheduleForm } from './schedule-form.tsx';

// The 'HVAC Assistant' window (spec 000 sections 2, 4, 5, 8). Loaded only when the visitor asks for
// it (chat-bubble.tsx imports it lazily); everything it shows lives in chat-store.ts.

const focusableSelector = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * The chat window. `shouldFocusOnMount`: the visitor just opened it (focus moves in), as opposed to
 * a window restored open after a reload (focus stays where the page put it).
 */
export default function ChatWindow({ shouldFocusOnMount }: { shouldFocusOnMount: boolean }) {
  const chat = useChatState();
  const titleId = useId();
  const inputId = useId();
  const hintId = useId();
  const dialogRef = useRef<HTMLElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const formAnchorRef = useRef<HTMLDivElement>(null);
  const isFullScreen = useMediaQuery(fullScreenChatQuery);
  const [formOpenedByVisitor, setFormOpenedByVisitor] = useState(false);
  const { messages, isReplyPending, isFormOpen, input } = chat;
  const canSend = input.trim().length > 0 && !isReplyPending && chat.sessionId !== '';

  // Focus moves into the window when the visitor opens it: the message box, or the window itself on
  // touch screens (focusing a text box there would throw the keyboard over the conversation).
  useEffect(() => {
    if (!shouldFocusOnMount) return;
    if (window.matchMedia('(pointer: fine)').matches) inputRef.current?.focus();
    else dialogRef.current?.focus();
  }, [shouldFocusOnMount]);

  // Full screen on a phone: the page behind does not scroll under the window.
  useEffect(() => {
    if (!isFullScreen) return;
    const root = document.documentElement;
    const previous = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = previous;
    };
  }, [isFullScreen]);

  // The newest message (or the typing indicator) scrolls into view.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    const targets = scroller?.querySelectorAll<HTMLElement>('[data-scroll-target="true"]');
    const last = targets?.[targets.length - 1];
    if (!scroller || !last) return;
    scroller.scrollTop = Math.max(0, last.offsetTop + last.offsetHeight + 16 - scroller.clientHeight);
  }, [messages.length, isReplyPending]);

  // When the form opens, the message that led to it stays in view with the form's top below it.
  const wasFormOpen = useRef(isFormOpen);
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (isFormOpen && !wasFormOpen.current && scroller && formAnchorRef.current) {
      const targets = scroller.querySelectorAll<HTMLElement>('[data-scroll-target="true"]');
      const lastMessage = targets[targets.length - 1];
      const formTop = formAnchorRef.current.offsetTop;
      const lastTop = lastMessage ? lastMessage.offsetTop : formTop;
      scroller.scrollTop = Math.max(0, formTop - lastTop > scroller.clientHeight / 2 ? formTop - 12 : lastTop - 12);
    }
    // The form closed (sent, failed or cancelled) while focus was in it: back to the message box.
    if (!isFormOpen && wasFormOpen.current) {
      const active = document.activeElement;
      if (!active || active === document.body || !dialogRef.current?.contains(active)) inputRef.current?.focus({ preventScroll: true });
    }
    wasFormOpen.current = isFormOpen;
  }, [isFormOpen]);

  // The message box grows with its text, up to about five lines.
  useLayoutEffect(() => {
    const box = inputRef.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${Math.min(box.scrollHeight, 128)}px`;
  }, [input]);

  function send() {
    if (!canSend) return;
    void sendChatMessage(input);
  }

  function onComposerKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter inserts a newline; Enter while composing (IME) is left alone.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send();
  }

  function fillQuestion(question: string) {
    setChatInput(question);
    const box = inputRef.current;
    if (box) {
      box.focus();
      requestAnimationFrame(() => box.setSelectionRange(question.length, question.length));
    }
  }

  function onDialogKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      closeChat();
      return;
    }
    // Full screen on a phone: Tab cycles inside the window, as the page behind it is covered.
    if (event.key === 'Tab' && isFullScreen && dialogRef.current) {
      const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(focusableSelector)].filter((element) => element.offsetParent !== null);
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && (document.activeElement === first || document.activeElement === dialogRef.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  }

  return (
    <section
      ref={dialogRef}
      role="dialog"
      aria-modal={isFullScreen ? true : undefined}
      aria-labelledby={titleId}
      tabIndex={-1}
      onKeyDown={onDialogKeyDown}
      className={`${chatPanelClass} focus:outline-none motion-safe:transition-[opacity,translate] motion-safe:duration-200 motion-safe:ease-out motion-safe:starting:translate-y-3 motion-safe:starting:opacity-0`}
    >
      <header className="flex shrink-0 items-center gap-3 bg-brand-800 px-4 py-3 text-white">
        <span className="relative">
          <AssistantAvatar className="size-10 bg-white/15 ring-1 ring-white/30" />
          <span aria-hidden="true" className="absolute bottom-0 right-0 size-3 rounded-full bg-green-500 ring-2 ring-brand-800" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-base font-semibold leading-tight">
            HVAC Assistant
          </h2>
          <p className="mt-0.5 flex items-center gap-1.5 text-xs font-medium text-green-100">
            <span aria-hidden="true" className="size-2 rounded-full bg-green-400" />
            Online
          </p>
        </div>
        <a
          href={telHref(company.phone)}
          aria-label={`Call us at ${company.phone}`}
          title={`Call ${company.phone}`}
          className="grid size-10 place-items-center rounded-full text-white hover:bg-white/10"
        >
          <PhoneIcon className="size-5" />
        </a>
        <button type="button" onClick={closeChat} aria-label="Close chat" title="Close" className="grid size-10 place-items-center rounded-full text-white hover:bg-white/10">
          <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" className="size-5">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </header>

      <div ref={scrollerRef} className="relative flex-1 overflow-y-auto overscroll-contain bg-slate-50 px-4 py-4">
        <div role="log" aria-live="polite" aria-label="Conversation" className="flex flex-col gap-3">
          <div data-scroll-target="true">
            <MessageItem message={{ sender: 'ai', text: chatMessages.greeting(company.name) }} />
          </div>
          {messages.map((message) => (
            <div key={message.id} data-scroll-target="true">
              <MessageItem message={message} />
            </div>
          ))}
        </div>
        <div role="status">
          {isReplyPending ? (
            <div data-scroll-target="true" className="mt-3 flex items-end gap-2">
              <AssistantAvatar className="size-7" />
              <div role="img" aria-label="Assistant is typing" className="flex items-center gap-1 rounded-2xl rounded-bl-md border border-slate-200 bg-white px-4 py-3 shadow-sm">
                <span className="size-2 rounded-full bg-slate-500 motion-safe:animate-bounce" />
                <span className="size-2 rounded-full bg-slate-500 motion-safe:animate-bounce [animation-delay:150ms]" />
                <span className="size-2 rounded-full bg-slate-500 motion-safe:animate-bounce [animation-delay:300ms]" />
              </div>
            </div>
          ) : null}
        </div>
        {isFormOpen ? (
          <div ref={formAnchorRef} className="mt-4">
            <ScheduleForm shouldFocusOnMount={formOpenedByVisitor} />
          </div>
        ) : null}
      </div>

      <div className="shrink-0 border-t border-slate-200 bg-white px-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] pt-2.5">
        <div
          role="group"
          aria-label="Quick questions"
          className="-mx-3 mb-2.5 flex gap-1.5 overflow-x-auto px-3 py-0.5 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0"
        >
          {quickQuestions.map((question) => (
            <button
              key={question}
              type="button"
              onClick={() => fillQuestion(question)}
              className="shrink-0 whitespace-nowrap rounded-full border border-brand-100 bg-brand-50 px-3 py-1.5 text-[13px] font-medium text-brand-800 hover:border-brand-600 hover:bg-brand-100"
            >
              {question}
            </button>
          ))}
          {!isFormOpen ? (
            <button
              type="button"
              onClick={() => {
                setFormOpenedByVisitor(true);
                openBookingForm();
              }}
              className="inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full bg-accent-700 px-3 py-1.5 text-[13px] font-semibold text-white hover:bg-accent-800"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" className="size-3.5">
                <rect x="3" y="4" width="18" height="18" rx="2" />
                <path d="M16 2v4M8 2v4M3 10h18" />
              </svg>
              Schedule Service
            </button>
          ) : null}
        </div>
        <form onSubmit={onSubmit} className="flex items-end gap-2">
          <label htmlFor={inputId} className="sr-only">
            Message
          </label>
          <textarea
            ref={inputRef}
            id={inputId}
            rows={1}
            value={input}
            maxLength={chatMessageMaxLength}
            onChange={(event) => setChatInput(event.currentTarget.value)}
            onKeyDown={onComposerKeyDown}
            placeholder="Type your message..."
            aria-describedby={hintId}
            enterKeyHint="send"
            className="max-h-32 min-h-11 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base leading-snug text-slate-900 placeholder:text-slate-500 focus:border-brand-600 sm:text-[15px]"
          />
          <button
            type="submit"
            aria-label="Send"
            disabled={!canSend}
            className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-700 text-white shadow-sm hover:bg-accent-800 disabled:cursor-not-allowed disabled:bg-slate-200 disabled:text-slate-500 disabled:shadow-none"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" fill="currentColor" className="size-5">
              <path d="M3.478 2.404a.75.75 0 00-.926.941l2.432 7.905H13.5a.75.75 0 010 1.5H4.984l-2.432 7.905a.75.75 0 00.926.94 60.519 60.519 0 0018.445-8.986.75.75 0 000-1.218A60.517 60.517 0 003.478 2.404z" />
            </svg>
          </button>
        </form>
        <p id={hintId} className="mt-1.5 hidden text-xs text-slate-600 [@media(pointer:fine)]:block">
          Press Enter to send, Shift+Enter for a new line.
        </p>
      </div>
    </section>
  );
}
