import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuoteCreate, QuoteDetailResponse, QuoteListResponse, QuoteListStatusFilter, QuoteSendResponse, QuoteUpdate } from '#shared/quote.ts';
import { quotePageSize } from '#shared/quote.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

export type QuoteListParams = {
  status: QuoteListStatusFilter;
  search: string;
  page: number;
  customerId?: string;
  workOrderId?: string;
  pageSize?: number;
};

/**
 * Query keys. A contract: the live-update hook invalidates ['quotes'] when quotes change (the
 * `quotes` topic, app/features/live/live-query-keys.ts), so the list, a quote open on screen and
 * the panels on customers and work orders follow a customer's answer without a reload.
 */
export const quoteKeys = {
  all: ['quotes'] as const,
  list: (params: QuoteListParams) => ['quotes', 'list', params] as const,
  detail: (id: string) => ['quotes', 'detail', id] as const,
};

const quotesPath = '/api/admin/quotes';
const quotePath = (id: string) => `${quotesPath}/${encodeURIComponent(id)}`;

export function quoteListQuery(params: QuoteListParams) {
  const search = new URLSearchParams({ status: params.status, page: String(params.page), pageSize: String(params.pageSize ?? quotePageSize) });
  if (params.search) search.set('search', params.search);
  if (params.customerId) search.set('customerId', params.customerId);
  if (params.workOrderId) search.set('workOrderId', params.workOrderId);
  return queryOptions({
    queryKey: quoteKeys.list(params),
    queryFn: ({ signal }) => apiFetch<QuoteListResponse>(`${quotesPath}?${search}`, { signal }),
  });
}

export function useQuoteList(params: QuoteListParams) {
  return useQuery({ ...quoteListQuery(params), placeholderData: keepPreviousData });
}

export function quoteDetailQuery(id: string) {
  return queryOptions({
    queryKey: quoteKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<QuoteDetailResponse>(quotePath(id), { signal }),
    retry: (count, error) => !(error instanceof ApiError && (error.status === 404 || error.status === 400)) && count < 2,
  });
}

export function useQuoteDetail(id: string) {
  return useQuery(quoteDetailQuery(id));
}

/** A change to a quote: the answer becomes its detail at once, and every quote list loads again. */
function useQuoteMutation<Variables, Answer extends QuoteDetailResponse>(request: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (answer) => queryClient.setQueryData(quoteKeys.detail(answer.quote.id), answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: quoteKeys.all }),
  });
}

export const useCreateQuote = () => useQuoteMutation((body: QuoteCreate) => apiFetch<QuoteDetailResponse>(quotesPath, { method: 'POST', body }));

export const useUpdateQuote = (id: string) => useQuoteMutation((body: QuoteUpdate) => apiFetch<QuoteDetailResponse>(quotePath(id), { method: 'PUT', body }));

export const useSendQuote = (id: string) => useQuoteMutation(() => apiFetch<QuoteSendResponse>(`${quotePath(id)}/send`, { method: 'POST' }));

export const useReviseQuote = (id: string) => useQuoteMutation(() => apiFetch<QuoteDetailResponse>(`${quotePath(id)}/revise`, { method: 'POST' }));

export const useCancelQuote = (id: string) => useQuoteMutation((reason: string) => apiFetch<QuoteDetailResponse>(`${quotePath(id)}/cancel`, { method: 'POST', body: { reason } }));
