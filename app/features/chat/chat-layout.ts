/**
 * Where the chat window sits: the whole screen on a phone, a floating panel bottom-right from the
 * `sm` breakpoint. Shared by the window and by the bubble's loading and error panels (which must not
 * import the window's code).
 */
export const chatPanelClass =
  'fixed inset-0 z-50 flex h-dvh w-full flex-col overflow-hidden bg-white sm:inset-auto sm:bottom-6 sm:right-6 sm:h-[min(680px,calc(100dvh-3rem))] sm:w-[400px] sm:rounded-2xl sm:border sm:border-slate-200 sm:shadow-2xl';

/** Below the `sm` breakpoint the window covers the page and keeps focus inside it. */
export const fullScreenChatQuery = '(max-width: 639.98px)';
