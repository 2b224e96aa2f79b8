import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { notificationLink, notificationSourceLine, type AdminNotification } from '#shared/notifications.ts';
import { useDismiss } from '#client/components/ui/use-dismiss.ts';
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications } from './api.ts';
import { relativeTime } from './relative-time.ts';

export function bellLabel(unreadCount: number): string {
  return unreadCount > 0 ? `Notifications, ${unreadCount} unread` : 'Notifications';
}

/**
 * The bell in the staff header: the unread count (kept current by live updates), a panel with the
 * newest notifications; opening one marks it read and goes to the screen it is about.
 */
export function NotificationBell() {
  const [isOpen, setIsOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelId = useId();
  const headingId = useId();
  const navigate = useNavigate();
  const notifications = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllNotificationsRead();
  const unreadCount = notifications.data?.unreadCount ?? 0;
  const announcement = useArrivalAnnouncement(unreadCount, notifications.isSuccess);

  useDismiss(containerRef, (reason) => {
    if (!isOpen) return;
    setIsOpen(false);
    if (reason === 'escape') buttonRef.current?.focus();
  });

  useEffect(() => {
    if (isOpen) headingRef.current?.focus();
  }, [isOpen]);

  const open = (notification: AdminNotification) => {
    if (!notification.readAt) markRead.mutate(notification.id);
    const link = notificationLink(notification);
    if (link) {
      setIsOpen(false);
      void navigate(link);
    }
  };

  return (
    <div ref={containerRef} className="relative xl:ml-auto">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={bellLabel(unreadCount)}
        onClick={() => setIsOpen((current) => !current)}
        className="relative flex h-11 w-11 items-center justify-center rounded-md hover:bg-brand-800"
      >
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.7 21a2 2 0 0 1-3.4 0" />
        </svg>
        {unreadCount > 0 && (
          <span aria-hidden="true" className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-bold leading-5 text-white">
            {unreadCount > 99 ? '99+' : unreadCount}
          </span>
        )}
      </button>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <section
        id={panelId}
        hidden={!isOpen}
        aria-labelledby={headingId}
        className="fixed inset-x-2 top-14 z-50 max-h-[calc(100vh-4.5rem)] overflow-y-auto rounded-md bg-white text-slate-800 shadow-lg ring-1 ring-black/10 sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-1 sm:w-96"
      >
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
          <h2 ref={headingRef} id={headingId} tabIndex={-1} className="text-sm font-semibold outline-none">
            Notifications
          </h2>
          <button
            type="button"
            onClick={() => markAllRead.mutate()}
            disabled={unreadCount === 0 || markAllRead.isPending}
            className="rounded px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-500 disabled:hover:bg-transparent"
          >
            Mark all as read
          </button>
        </div>
        {notifications.isPending ? (
          <p role="status" className="px-4 py-6 text-center text-sm text-slate-600">
            Loading notifications...
          </p>
        ) : notifications.isError ? (
          <div role="alert" className="px-4 py-6 text-center text-sm">
            <p className="text-red-800">Notifications could not be loaded.</p>
            <button type="button" onClick={() => void notifications.refetch()} className="mt-2 font-medium text-brand-700 underline">
              Try again
            </button>
          </div>
        ) : notifications.data.notifications.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-slate-600">No notifications</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {notifications.data.notifications.map((notification) => (
              <li key={notification.id}>
                <NotificationItem notification={notification} onOpen={open} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function NotificationItem({ notification, onOpen }: { notification: AdminNotification; onOpen: (notification: AdminNotification) => void }) {
  const isUnread = !notification.readAt;
  const source = notificationSourceLine(notification);
  return (
    <button
      type="button"
      onClick={() => onOpen(notification)}
      className={`flex w-full gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-slate-50 ${isUnread ? 'bg-brand-50/60' : ''}`}
    >
      <span aria-hidden="true" className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${isUnread ? 'bg-accent-600' : 'bg-transparent'}`} />
      <span className="min-w-0 flex-1">
        {isUnread && <span className="sr-only">Unread: </span>}
        <span className={`block text-sm ${isUnread ? 'font-semibold text-slate-900' : 'font-medium text-slate-700'}`}>{notification.title}</span>
        {source ? <span className="block text-xs font-medium text-amber-900">{source}</span> : null}
        <span className="mt-0.5 line-clamp-3 block text-sm break-words text-slate-600">{notification.message}</span>
        <time dateTime={notification.createdAt} title={new Date(notification.createdAt).toLocaleString('en-US')} className="mt-1 block text-xs text-slate-600">
          {relativeTime(notification.createdAt)}
        </time>
      </span>
    </button>
  );
}

/** Screen readers hear when a new notification arrives (not on the first load, not when reading). */
function useArrivalAnnouncement(unreadCount: number, isLoaded: boolean): string {
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!isLoaded) return;
    if (previous.current !== undefined && unreadCount > previous.current) {
      setAnnouncement(`${unreadCount} unread ${unreadCount === 1 ? 'notification' : 'notifications'}`);
    }
    previous.current = unreadCount;
  }, [unreadCount, isLoaded]);
  return announcement;
}
