import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminNotification, NotificationListResponse } from '#shared/notifications.ts';
import { apiFetch } from '#client/lib/api.ts';

export const notificationListLimit = 20;

/** Query keys of staff notifications (live updates invalidate everything under ['notifications']). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (limit: number) => [...notificationKeys.all, 'list', { limit }] as const,
};

const notificationsPath = '/api/admin/notifications';

export function notificationListQuery(limit = notificationListLimit) {
  return queryOptions({
    queryKey: notificationKeys.list(limit),
    queryFn: ({ signal }) => apiFetch<NotificationListResponse>(`${notificationsPath}?${new URLSearchParams({ limit: String(limit) })}`, { signal }),
  });
}

export function useNotifications() {
  return useQuery(notificationListQuery());
}

/** Marks read at once on screen (the server confirms; a failure puts the list back). */
function useOptimisticRead<Variables>(request: (variables: Variables) => Promise<unknown>, isAffected: (notification: AdminNotification, variables: Variables) => boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onMutate: async (variables) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      const previous = queryClient.getQueriesData<NotificationListResponse>({ queryKey: notificationKeys.all });
      const readAt = new Date().toISOString();
      queryClient.setQueriesData<NotificationListResponse>({ queryKey: notificationKeys.all }, (current) => {
        if (!current) return current;
        let newlyRead = 0;
        const notifications = current.notifications.map((notification) => {
          if (notification.readAt || !isAffected(notification, variables)) return notification;
          newlyRead += 1;
          return { ...notification, readAt };
        });
        return { notifications, unreadCount: Math.max(0, current.unreadCount - newlyRead) };
      });
      return { previous };
    },
    onError: (_error, _variables, context) => {
      for (const [queryKey, data] of context?.previous ?? []) queryClient.setQueryData(queryKey, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useMarkNotificationRead() {
  return useOptimisticRead(
    (id: string) => apiFetch<{ notification: AdminNotification }>(`${notificationsPath}/${encodeURIComponent(id)}/read`, { method: 'POST' }),
    (notification, id) => notification.id === id,
  );
}

export function useMarkAllNotificationsRead() {
  return useOptimisticRead(
    () => apiFetch<{ updated: number }>(`${notificationsPath}/read-all`, { method: 'POST' }),
    () => true,
  );
}
