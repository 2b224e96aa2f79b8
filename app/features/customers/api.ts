import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  photoUploadField,
  photoUploadLimits,
  type CustomerListResponse,
  type CustomerPhoto,
  type CustomerProfileResponse,
  type CustomerResponse,
  type CustomerValues,
} from '#shared/customer.ts';
import type { CustomerMatchDecision, CustomerMatchResolution } from '#shared/customer-match.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

/** The directory's page size (the server's default). */
export const customerPageSize = 50;

export type CustomerListParams = { search: string; page: number; pageSize?: number };

/** Query keys of everything customer-shaped, so a change can refresh exactly what it touched. */
export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (params: CustomerListParams) =>
    [...customerKeys.lists(), { search: params.search, page: params.page, pageSize: params.pageSize ?? customerPageSize }] as const,
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (id: string) => [...customerKeys.details(), id] as const,
};

const customersPath = '/api/admin/customers';
const customerPath = (id: string) => `${customersPath}/${encodeURIComponent(id)}`;

export function customerListQuery(params: CustomerListParams) {
  const search = new URLSearchParams({
    search: params.search,
    page: String(params.page),
    pageSize: String(params.pageSize ?? customerPageSize),
  });
  return queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) => apiFetch<CustomerListResponse>(`${customersPath}?${search}`, { signal }),
  });
}

export function customerProfileQuery(id: string) {
  return queryOptions({
    queryKey: customerKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<CustomerProfileResponse>(customerPath(id), { signal }),
  });
}

/** A page of the directory; the previous page stays on screen while the next one loads. */
export function useCustomerList(params: CustomerListParams) {
  return useQuery({ ...customerListQuery(params), placeholderData: keepPreviousData });
}

export function useCustomerProfile(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...customerProfileQuery(id), enabled: options.enabled ?? true });
}

export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: CustomerValues) => apiFetch<CustomerResponse>(customersPath, { method: 'POST', body: values }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.lists() }),
  });
}

export function useUpdateCustomer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: CustomerValues) => apiFetch<CustomerResponse>(customerPath(id), { method: 'PUT', body: values }),
    onSuccess: ({ customer }) => {
      queryClient.setQueryData<CustomerProfileResponse>(customerKeys.detail(id), (profile) => (profile ? { ...profile, customer } : profile));
      return queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}

export function useDeleteCustomer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>(customerPath(id), { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: customerKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
}

/**
 * Sends files as multipart/form-data (in the `photos` field). XMLHttpRequest rather than fetch: it
 * reports upload progress. Errors are the same ApiError apiFetch throws.
 */
export function uploadCustomerPhotos(id: string, files: readonly File[], onProgress?: (fraction: number) => void): Promise<CustomerPhoto[]> {
  const form = new FormData();
  for (const file of files) form.append(photoUploadField, file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${customerPath(id)}/photos`);
    request.setRequestHeader('accept', 'application/json');
    request.responseType = 'text';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      let body: unknown;
      try {
        body = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve((body as { photos?: CustomerPhoto[] } | undefined)?.photos ?? []);
        return;
      }
      const error = (body as { error?: { code?: ErrorCode; message?: string; details?: unknown } } | undefined)?.error;
      const fallback = request.status === 413 ? 'The file is too large.' : request.statusText || `HTTP ${request.status}`;
      reject(new ApiError(request.status, error?.code ?? 'INTERNAL', error?.message ?? fallback, error?.details));
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'NETWORK', 'Network error')));
    request.addEventListener('abort', () => reject(new ApiError(0, 'NETWORK', 'The upload was cancelled')));
    request.send(form);
  });
}

/**
 * Uploads at once (in batches of the server's per-request limit) and adds the stored photos to the
 * cached profile; `progress` is 0..1 while sending.
 */
export function useUploadCustomerPhotos(id: string) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number>();
  const mutation = useMutation({
    mutationFn: async (files: readonly File[]) => {
      const totalBytes = files.reduce((sum, file) => sum + file.size, 0) || 1;
      let sentBytes = 0;
      const stored: CustomerPhoto[] = [];
      setProgress(0);
      for (let start = 0; start < files.length; start += photoUploadLimits.maxFilesPerRequest) {
        const batch = files.slice(start, start + photoUploadLimits.maxFilesPerRequest);
        const batchBytes = batch.reduce((sum, file) => sum + file.size, 0);
        const photos = await uploadCustomerPhotos(id, batch, (fraction) => setProgress((sentBytes + fraction * batchBytes) / totalBytes));
        sentBytes += batchBytes;
        stored.push(...photos);
        addPhotosToProfile(photos);
      }
      return stored;
    },
    onSettled: () => {
      setProgress(undefined);
      return queryClient.invalidateQueries({ queryKey: customerKeys.detail(id) });
    },
  });

  function addPhotosToProfile(photos: CustomerPhoto[]) {
    queryClient.setQueryData<CustomerProfileResponse>(customerKeys.detail(id), (profile) =>
      profile ? { ...profile, photos: [...profile.photos, ...photos.filter((photo) => !profile.photos.some((known) => known.id === photo.id))] } : profile,
    );
  }

  return { ...mutation, progress };
}

export function useDeleteCustomerPhoto(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (photoId: string) => apiFetch<void>(`${customerPath(id)}/photos/${encodeURIComponent(photoId)}`, { method: 'DELETE' }),
    onSuccess: (_result, photoId) => {
      queryClient.setQueryData<CustomerProfileResponse>(customerKeys.detail(id), (profile) =>
        profile ? { ...profile, photos: profile.photos.filter((photo) => photo.id !== photoId) } : profile,
      );
    },
  });
}

/** The server's message for an API refusal; undefined for a network failure (the caller's generic text). */
export function apiErrorMessage(error: unknown): string | undefined {
  if (error instanceof ApiError && error.code !== 'NETWORK') return error.message;
  return undefined;
}

/**
 * "Same customer" / "New customer" on a chat booking's possible match (decision 018-a), from the
 * work order's detail or the leads screen; refreshes work orders, leads and customers after.
 */
export function useResolveCustomerMatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ target, decision, expectedUpdatedAt }: { target: CustomerMatchTarget; decision: CustomerMatchDecision; expectedUpdatedAt: string }) =>
      apiFetch<CustomerMatchResolution>(customerMatchPath(target), { method: 'POST', body: { decision, expectedUpdatedAt } }),
    onSettled: () =>
      Promise.all(
        [customerKeys.all, ['work-orders'], ['leads'], ['calendar'], ['dashboard']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

export type CustomerMatchTarget = { kind: 'work_order' | 'chat_lead'; id: string };

export function customerMatchPath(target: CustomerMatchTarget): string {
  const id = encodeURIComponent(target.id);
  return target.kind === 'work_order' ? `/api/admin/work-orders/${id}/customer-match` : `/api/admin/leads/chat/${id}/customer-match`;
}
