import { Component, lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { telHref } from '#shared/company-profile.ts';
import { company } from '#client/lib/company.ts';
import { chatPanelClass } from './chat-layout.ts';
import { closeChat, hydrateChat, openChat, useChatState } from './chat-store.ts';

// The floating 'Need Help?' button on every public page. Kept tiny: the chat window's code (its
// schemas, API calls and form) is fetched only when the visitor shows intent (hover, focus, click).

const loadChatWindow = () => import('./chat-window.tsx');

function prefetchChatWindow(): void {
  loadChatWindow().catch(() => undefined);
}

/** The window's code failed to load (offline, a new deployment): say so instead of breaking the page. */
class ChatLoadBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { hasFailed: boolean }> {
  override state = { hasFailed: false };

  static getDerivedStateFromError() {
    return { hasFailed: true };
  }

  override render() {
    if (!this.state.hasFailed) return this.props.children;
    return (
      <section role="alertdialog" aria-labelledby="chat-load-failed" className={`${chatPanelClass} items-center justify-center gap-4 p-6 text-center sm:h-auto`}>
        <h2 id="chat-load-failed" className="text-lg font-semibold text-slate-900">
          The chat could not load
        </h2>
        <p className="text-slate-700">
          Please try again, or call us at{' '}
          <a href={telHref(company.phone)} className="font-semibold text-brand-700 underline">
            {company.phone}
          </a>
          .
        </p>
        <div className="flex gap-2">
          <button type="button" onClick={closeChat} className="rounded-lg border border-slate-300 px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50">
            Close
          </button>
          <button type="button" onClick={this.props.onRetry} className="rounded-lg bg-accent-700 px-4 py-2 font-semibold text-white hover:bg-accent-800">
            Try again
          </button>
        </div>
      </section>
    );
  }
}

function LoadingPanel() {
  return (
    <div className={`${chatPanelClass} items-center justify-center gap-3`} role="status">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-8 text-brand-700 motion-safe:animate-spin" fill="none">
        <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
        <path d="M21 12a9 9 0 00-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <p className="text-sm text-slate-700">Loading chat...</p>
    </div>
  );
}

export function ChatBubble() {
  const { isOpen, isHydrated } = useChatState();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [ChatWindow, setChatWindow] = useState(() => lazy(loadChatWindow));
  const [attempt, setAttempt] = useState(0);
  const [openedByVisitor, setOpenedByVisitor] = useState(false);

  // The conversation kept in this tab (and whether the window was open) is read after mount only.
  useEffect(() => {
    hydrateChat();
  }, []);

  // Focus goes back to the bubble when the window closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !isOpen) buttonRef.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);

  return (
    <aside aria-label="Chat with us">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        // Never disabled: a click before the page is live is kept by the page's loader and clicked
        // again once it is (scripts/defer-hydration.mjs); by then the stored conversation is read.
        onPointerEnter={prefetchChatWindow}
        onFocus={prefetchChatWindow}
        onClick={() => {
          setOpenedByVisitor(true);
          openChat();
        }}
        className={`${isOpen ? 'hidden' : 'flex'} fixed bottom-4 right-4 z-50 items-center gap-2 rounded-full bg-accent-700 py-3 pl-4 pr-5 font-semibold text-white shadow-lg shadow-slate-900/25 ring-4 ring-white hover:bg-accent-800 sm:bottom-6 sm:right-6`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className="size-6">
          <path d="M21 11.5a8.38 8.38 0 01-.9 3.8 8.5 8.5 0 01-7.6 4.7 8.38 8.38 0 01-3.8-.9L3 21l1.9-5.7a8.38 8.38 0 01-.9-3.8 8.5 8.5 0 014.7-7.6 8.38 8.38 0 013.8-.9h.5a8.48 8.48 0 018 8v.5z" />
          <path d="M8.5 11.5h.01M12 11.5h.01M15.5 11.5h.01" strokeWidth="2.6" />
        </svg>
        Need Help?
      </button>
      {isOpen && isHydrated ? (
        <ChatLoadBoundary
          key={attempt}
          onRetry={() => {
            setChatWindow(() => lazy(loadChatWindow));
            setAttempt((count) => count + 1);
          }}
        >
          <Suspense fallback={<LoadingPanel />}>
            <ChatWindow shouldFocusOnMount={openedByVisitor} />
          </Suspense>
        </ChatLoadBoundary>
      ) : null}
    </aside>
  );
}
