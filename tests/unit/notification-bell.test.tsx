// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminNotification, NotificationListResponse } from '#shared/notifications.ts';
import { NotificationBell } from '#client/features/notifications/notification-bell.tsx';
import { relativeTime } from '#client/features/notifications/relative-time.ts';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function notification(overrides: Partial<AdminNotification>): AdminNotification {
  return { id: 'n1', type: 'new_estimate_request', title: 'New estimate request: Maintenance', message: 'Sam asked for maintenance.', data: {}, readAt: null, createdAt: minutesAgo(5), ...overrides };
}

/** The API as the bell sees it: answers from `list`, records what was posted. */
function serveApi(list: () => NotificationListResponse | Promise<NotificationListResponse>) {
  const posted: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (init.method === 'POST') {
      posted.push(url);
      return new Response(JSON.stringify({ updated: 1, notification: notification({}) }), { status: 200 });
    }
    return new Response(JSON.stringify(await list()), { status: 200 });
  });
  return posted;
}

function renderBell() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/admin', element: <NotificationBell /> },
      { path: '/admin/estimates', element: <p>Leads screen</p> },
    ],
    { initialEntries: ['/admin'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the notification bell', () => {
  it('names the unread count, lists newest first, and opening one marks it read and goes to its screen', async () => {
    const posted = serveApi(() => ({
      notifications: [notification({ id: 'a1', title: 'New estimate request: Ductwork' }), notification({ id: 'b2', title: 'Older', readAt: minutesAgo(1), createdAt: minutesAgo(90) })],
      unreadCount: 1,
    }));
    const router = renderBell();
    const user = userEvent.setup();
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Notifications');
    expect(screen.getByRole('button', { name: /^Unread: New estimate request: Ductwork/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Older.*2 hours ago$/ })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /New estimate request: Ductwork/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/estimates'));
    expect(posted).toEqual(['/api/admin/notifications/a1/read']);
  });

  it('says when there are none, with nothing to mark; Escape closes and focuses the bell', async () => {
    serveApi(() => ({ notifications: [], unreadCount: 0 }));
    renderBell();
    const user = userEvent.setup();
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await user.click(bell);
    expect(await screen.findByText('No notifications')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard('{Escape}');
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(bell);
  });

  it('shows a loading state, then marks all as read', async () => {
    let answer: (value: NotificationListResponse) => void = () => undefined;
    const posted = serveApi(() => new Promise((resolve) => (answer = resolve)));
    renderBell();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(screen.getByText('Loading notifications...')).toBeTruthy();
    answer({ notifications: [notification({ id: 'a1' }), notification({ id: 'a2' })], unreadCount: 2 });
    await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(posted).toEqual(['/api/admin/notifications/read-all']);
  });
});

describe('relative time', () => {
  it('reads like people say it', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(relativeTime('2026-05-01T11:59:40Z', now)).toBe('just now');
    expect(relativeTime('2026-05-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-04-30T12:00:00Z', now)).toBe('yesterday');
  });
});
