import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { WorkOrderStatus } from '#shared/enums.ts';
import type { TechnicianListResponse } from '#shared/technician.ts';
import type {
  inspectionReportSchema,
  WorkOrder,
  workOrderCreateBodySchema,
  WorkOrderCreateResponse,
  WorkOrderDetailResponse,
  WorkOrderListResponse,
  WorkOrderResponse,
  workOrderScheduleSchema,
  workOrderStatusFilters,
  workOrderTaskCreateSchema,
  workOrderTaskUpdateSchema,
  WorkOrderUpdateInput,
} from '#shared/work-order.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

export const workOrderPageSize = 25;

export type WorkOrderStatusFilter = (typeof workOrderStatusFilters)[number];
export type WorkOrderListParams = { status: WorkOrderStatusFilter; search: string; page: number; pageSize?: number };

/** The answers, as the server's route schemas declare them (shared/work-order.ts). */
export type { InspectionReport, WorkOrder, WorkOrderDetailResponse, WorkOrderTask } from '#shared/work-order.ts';

/** What describes a work order, on the new-work-order form and in 'Edit Details'. */
export type WorkOrderFieldValues = {
  title: string;
  serviceType: string;
  priority: string;
  serviceDate: string;
  timePreference: string;
  description: string;
};

/** The work order fields of the new work order form (the body of POST /api/admin/work-orders). */
export type WorkOrderFields = WorkOrderFieldValues & { notes: string };
/** The body of POST /api/admin/work-orders: an existing customer's id, or a new customer. */
export type WorkOrderCreateBody = z.input<ReturnType<typeof workOrderCreateBodySchema>>;
export type ScheduleBody = z.input<ReturnType<typeof workOrderScheduleSchema>>;
export type InspectionReportBody = z.input<typeof inspectionReportSchema>;
export type TaskBody = z.input<typeof workOrderTaskCreateSchema>;
export type TaskUpdateBody = z.input<typeof workOrderTaskUpdateSchema>;

/** Query keys of everything work-order shaped. */
export const workOrderKeys = {
  all: ['work-orders'] as const,
  lists: () => [...workOrderKeys.all, 'list'] as const,
  list: (params: WorkOrderListParams) =>
    [...workOrderKeys.lists(), { status: params.status, search: params.search, page: params.page, pageSize: params.pageSize ?? workOrderPageSize }] as const,
  details: () => [...workOrderKeys.all, 'detail'] as const,
  detail: (id: string) => [...workOrderKeys.details(), id] as const,
  technicians: () => ['technicians', 'active'] as const,
};

const workOrdersPath = '/api/admin/work-orders';
const workOrderPath = (id: string) => `${workOrdersPath}/${encodeURIComponent(id)}`;

export function workOrderListQuery(params: WorkOrderListParams) {
  const search = new URLSearchParams({
    status: params.status,
    search: params.search,
    page: String(params.page),
    pageSize: String(params.pageSize ?? workOrderPageSize),
  });
  return queryOptions({
    queryKey: workOrderKeys.list(params),
    queryFn: ({ signal }) => apiFetch<WorkOrderListResponse>(`${workOrdersPath}?${search}`, { signal }),
  });
}

export function workOrderDetailQuery(id: string) {
  return queryOptions({
    queryKey: workOrderKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<WorkOrderDetailResponse>(workOrderPath(id), { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

export function useWorkOrderList(params: WorkOrderListParams) {
  return useQuery({ ...workOrderListQuery(params), placeholderData: keepPreviousData });
}

export function useWorkOrderDetail(id: string) {
  return useQuery(workOrderDetailQuery(id));
}

export function useActiveTechnicians() {
  return useQuery({
    queryKey: workOrderKeys.technicians(),
    queryFn: ({ signal }) => apiFetch<TechnicianListResponse>('/api/admin/technicians?active=true', { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useCreateWorkOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkOrderCreateBody) => apiFetch<WorkOrderCreateResponse>(workOrdersPath, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }).then(() => queryClient.invalidateQueries({ queryKey: workOrderKeys.lists() })),
  });
}

/** Status change from the list or the detail screen; the version the user saw goes along. */
export function useChangeWorkOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, expectedUpdatedAt }: { id: string; status: WorkOrderStatus; expectedUpdatedAt: string }) =>
      apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/status`, { method: 'POST', body: { status, expectedUpdatedAt } }),
    onSettled: (_data, _error, { id }) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: workOrderKeys.lists() }), queryClient.invalidateQueries({ queryKey: workOrderKeys.detail(id) })]),
  });
}

function useDetailMutation<Variables>(id: string, request: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: workOrderKeys.detail(id) }), queryClient.invalidateQueries({ queryKey: workOrderKeys.lists() })]),
  });
}

/** The body of PUT /api/admin/work-orders/:id ('Edit Details'). */
export type WorkOrderUpdateBody = WorkOrderUpdateInput;

export function useUpdateWorkOrder(id: string) {
  return useDetailMutation(id, (body: WorkOrderUpdateBody) => apiFetch<WorkOrderResponse>(workOrderPath(id), { method: 'PUT', body }));
}

/** The current values a 409 conflict answer carries. */
export function conflictCurrent(error: unknown): WorkOrder | undefined {
  return isConflict(error) ? ((error as ApiError).details as { current: WorkOrder }).current : undefined;
}

export function useUpdateWorkOrderNotes(id: string) {
  return useDetailMutation(id, (body: { notes: string; expectedUpdatedAt: string }) =>
    apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/notes`, { method: 'PUT', body }),
  );
}

export function useScheduleWorkOrder(id: string) {
  return useDetailMutation(id, (body: ScheduleBody) => apiFetch<WorkOrderResponse>(`${workOrderPath(id)}/schedule`, { method: 'POST', body }));
}

export function useAddWorkOrderTask(id: string) {
  return useDetailMutation(id, (body: TaskBody) => apiFetch<unknown>(`${workOrderPath(id)}/tasks`, { method: 'POST', body }));
}

export function useUpdateWorkOrderTask(id: string) {
  return useDetailMutation(id, ({ taskId, ...body }: TaskUpdateBody & { taskId: string }) =>
    apiFetch<unknown>(`${workOrderPath(id)}/tasks/${encodeURIComponent(taskId)}`, { method: 'PATCH', body }),
  );
}

export function useAddInspectionReport(id: string) {
  return useDetailMutation(id, (body: InspectionReportBody) => apiFetch<unknown>(`${workOrderPath(id)}/inspection-reports`, { method: 'POST', body }));
}

/**
 * Someone else changed the work order since this screen loaded it: the server answers 409 with
 * the current values. A 409 without them is a refused move (e.g. completed → in-progress), whose
 * own message says why.
 */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && Boolean((error.details as { current?: unknown } | undefined)?.current);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
