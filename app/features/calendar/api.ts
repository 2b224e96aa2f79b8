import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  scheduleOverlapDetailsSchema,
  type CalendarAppointmentUpdateInput,
  type CalendarAssignInput,
  type CalendarEventResponse,
  type CalendarOverlap,
  type CalendarRangeResponse,
  type CalendarRescheduleInput,
} from '#shared/calendar.ts';
import type { WorkOrderStatus } from '#shared/enums.ts';
import type { z } from 'zod';
import type { workOrderCreateRequestSchema, WorkOrderCreateResponse, WorkOrderResponse } from '#shared/work-order.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';
import { workOrderKeys } from '#client/features/work-orders/index.ts';

/**
 * Every calendar query key starts with ['calendar']: the live updates invalidate that prefix when
 * work orders change, which refetches the visible range without a reload.
 */
export const calendarKeys = {
  all: ['calendar'] as const,
  range: (start: string, end: string) => [...calendarKeys.all, start, end] as const,
  event: (id: string) => [...calendarKeys.all, 'event', id] as const,
};

/** The visible range [start, end) (calendar dates); the previous range stays shown while the next loads. */
export function useCalendarRange(range: { start: string; end: string } | undefined) {
  return useQuery({
    queryKey: calendarKeys.range(range?.start ?? '', range?.end ?? ''),
    queryFn: ({ signal }) =>
      apiFetch<CalendarRangeResponse>(`/api/admin/calendar/events?${new URLSearchParams({ start: range!.start, end: range!.end })}`, { signal }),
    enabled: Boolean(range),
    placeholderData: keepPreviousData,
  });
}

/**
 * One appointment in full, for its dialog (the range carries what the grid draws). Under ['calendar'],
 * so a live update or a change refetches it with the range.
 */
export function useCalendarEvent(id: string | undefined) {
  return useQuery({
    queryKey: calendarKeys.event(id ?? ''),
    queryFn: ({ signal }) => apiFetch<CalendarEventResponse>(`/api/admin/calendar/events/${encodeURIComponent(id!)}`, { signal }),
    enabled: Boolean(id),
  });
}

const workOrderPath = (id: string) => `/api/admin/work-orders/${encodeURIComponent(id)}`;

/** After any change: the calendar's ranges, and the work-order screens that show the same order. */
function useInvalidateAfterChange() {
  const queryClient = useQueryClient();
  return (id?: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
      queryClient.invalidateQueries({ queryKey: workOrderKeys.lists() }),
      id ? queryClient.invalidateQueries({ queryKey: workOrderKeys.detail(id) }) : undefined,
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ]);
}

function useCalendarMutation<Variables extends { id: string }>(request: (variables: Variables) => Promise<unknown>) {
  const invalidate = useInvalidateAfterChange();
  return useMutation({ mutationFn: request, onSettled: (_data, _error, variables) => invalidate(variables.id) });
}

export function useRescheduleAppointment() {
  return useCalendarMutation(({ id, ...body }: CalendarRescheduleInput & { id: string }) =>
    apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/reschedule`, { method: 'POST', body }),
  );
}

export function useAssignTechnician() {
  return useCalendarMutation(({ id, ...body }: CalendarAssignInput & { id: string }) =>
    apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/assign`, { method: 'POST', body }),
  );
}

export function useChangeAppointmentStatus() {
  return useCalendarMutation(({ id, ...body }: { id: string; status: WorkOrderStatus; expectedUpdatedAt: string }) =>
    apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/status`, { method: 'POST', body }),
  );
}

export function useUpdateAppointment() {
  return useCalendarMutation(({ id, ...body }: CalendarAppointmentUpdateInput & { id: string }) =>
    apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/appointment`, { method: 'PUT', body }),
  );
}

export function useDeleteAppointment() {
  return useCalendarMutation(({ id, expectedUpdatedAt }: { id: string; expectedUpdatedAt: string }) =>
    apiFetch<void>(`${workOrderPath(id)}?${new URLSearchParams({ expectedUpdatedAt })}`, { method: 'DELETE' }),
  );
}

/** 'Create New Appointment': the new-work-order body with the appointment's times (POST /api/admin/work-orders). */
export type AppointmentCreateBody = z.input<ReturnType<typeof workOrderCreateRequestSchema>>;

export function useCreateAppointment() {
  const invalidate = useInvalidateAfterChange();
  return useMutation({
    mutationFn: (body: AppointmentCreateBody) => apiFetch<WorkOrderCreateResponse>('/api/admin/work-orders', { method: 'POST', body }),
    onSettled: () => invalidate(),
  });
}

/** The appointments a 409 SCHEDULE_OVERLAP answer names, or undefined for any other failure. */
export function overlapsOf(error: unknown): { message: string; overlaps: CalendarOverlap[] } | undefined {
  if (!(error instanceof ApiError) || error.code !== 'SCHEDULE_OVERLAP') return undefined;
  // The details' shape is the 409's response schema (shared/calendar.ts): read with the same schema.
  const details = scheduleOverlapDetailsSchema.safeParse(error.details);
  return { message: error.message, overlaps: details.success ? details.data.overlaps : [] };
}

/** A 409 that carries the current values: someone else changed the work order first. */
export function isStale(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && Boolean((error.details as { current?: unknown } | undefined)?.current);
}

/** '{spec alert}: {why}' (the server's message; a network failure says so). */
export function failureMessage(alert: string, error: unknown): string {
  if (error instanceof ApiError && error.code !== 'NETWORK' && error.code !== 'INTERNAL') return `${alert}: ${error.message}`;
  return `${alert}. Please check your connection and try again.`;
}
