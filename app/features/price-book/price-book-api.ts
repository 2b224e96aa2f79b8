import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PriceBookImportResult,
  PriceBookItem,
  PriceBookItemCreateInput,
  PriceBookItemResponse,
  PriceBookItemUpdateInput,
  PriceBookListParams,
  PriceBookListResponse,
} from '#shared/price-book.ts';
import { priceBookImportField } from '#shared/price-book.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

/** Under ['price-book']: the live 'price_book_items' topic refreshes every price-book view. */
export const priceBookKey = ['price-book'] as const;

export function priceBookQueryString(params: PriceBookListParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '' && value !== null) search.set(key, String(value));
  }
  return search.toString();
}

export function usePriceBookList(params: PriceBookListParams, options: { enabled?: boolean } = {}) {
  const query = priceBookQueryString(params);
  return useQuery({
    queryKey: [...priceBookKey, 'list', query],
    queryFn: ({ signal }) => apiFetch<PriceBookListResponse>(`/api/admin/price-book?${query}`, { signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export function usePriceBookItem(id: string | undefined) {
  return useQuery({
    queryKey: [...priceBookKey, 'item', id],
    queryFn: ({ signal }) => apiFetch<PriceBookItemResponse>(`/api/admin/price-book/${id}`, { signal }),
    enabled: Boolean(id),
  });
}

function useInvalidatePriceBook() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: priceBookKey });
}

export function useCreatePriceBookItem() {
  const invalidate = useInvalidatePriceBook();
  return useMutation({
    mutationFn: (input: PriceBookItemCreateInput) => apiFetch<{ item: PriceBookItem }>('/api/admin/price-book', { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdatePriceBookItem() {
  const invalidate = useInvalidatePriceBook();
  return useMutation({
    mutationFn: ({ id, ...input }: PriceBookItemUpdateInput & { id: string }) =>
      apiFetch<{ item: PriceBookItem }>(`/api/admin/price-book/${id}`, { method: 'PUT', body: input }),
    onSuccess: invalidate,
  });
}

export function useSetPriceBookItemActive() {
  const invalidate = useInvalidatePriceBook();
  return useMutation({
    mutationFn: ({ id, active, expectedUpdatedAt }: { id: string; active: boolean; expectedUpdatedAt?: string }) =>
      apiFetch<{ item: PriceBookItem }>(`/api/admin/price-book/${id}/status`, { method: 'POST', body: { active, expectedUpdatedAt } }),
    onSuccess: invalidate,
  });
}

export function useDeletePriceBookItem() {
  const invalidate = useInvalidatePriceBook();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/admin/price-book/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

/** Uploads the CSV (multipart, field "file"); a dry run changes nothing. A failed import's result is in the error's details. */
export async function uploadPriceBookCsv(file: File, dryRun: boolean): Promise<PriceBookImportResult> {
  const form = new FormData();
  form.append(priceBookImportField, file);
  let response: Response;
  try {
    response = await fetch(`/api/admin/price-book/import?dryRun=${dryRun}`, {
      method: 'POST',
      body: form,
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', error instanceof Error ? error.message : 'Network error');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: ErrorCode; message?: string; details?: unknown } } | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? 'INTERNAL', error?.message ?? response.statusText, error?.details);
  }
  return body as PriceBookImportResult;
}

export function useImportPriceBook() {
  const invalidate = useInvalidatePriceBook();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => uploadPriceBookCsv(file, dryRun),
    onSuccess: (_result, variables) => (variables.dryRun ? undefined : invalidate()),
  });
}
