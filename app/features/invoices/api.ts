import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreditNoteCreate,
  InvoiceDetailResponse,
  InvoiceDraftUpdate,
  InvoiceListResponse,
  InvoiceListStatusFilter,
  PaymentCreate,
  ReceivablesSummary,
  RefundCreate,
} from '#shared/invoice.ts';
import { invoicePageSize } from '#shared/invoice.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

export type InvoiceListParams = { status: InvoiceListStatusFilter; search: string; page: number; issuedFrom?: string; issuedTo?: string };

/**
 * Query keys. A contract: the live-update hook invalidates ['invoices'] and ['dashboard'] when
 * invoices or payments change (app/features/live/live-query-keys.ts); the A/R figures live under
 * ['dashboard'] so the dashboard and the Invoices screen follow together.
 */
export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (params: InvoiceListParams) => ['invoices', 'list', params] as const,
  detail: (id: string) => ['invoices', 'detail', id] as const,
  receivables: ['dashboard', 'receivables'] as const,
};

const invoicesPath = '/api/admin/invoices';
const invoicePath = (id: string) => `${invoicesPath}/${encodeURIComponent(id)}`;

export function invoiceListQuery(params: InvoiceListParams) {
  const search = new URLSearchParams({ status: params.status, page: String(params.page), pageSize: String(invoicePageSize) });
  if (params.search) search.set('search', params.search);
  if (params.issuedFrom) search.set('issuedFrom', params.issuedFrom);
  if (params.issuedTo) search.set('issuedTo', params.issuedTo);
  return queryOptions({
    queryKey: invoiceKeys.list(params),
    queryFn: ({ signal }) => apiFetch<InvoiceListResponse>(`${invoicesPath}?${search}`, { signal }),
  });
}

export function useInvoiceList(params: InvoiceListParams) {
  return useQuery({ ...invoiceListQuery(params), placeholderData: keepPreviousData });
}

export function useReceivables() {
  return useQuery({
    queryKey: invoiceKeys.receivables,
    queryFn: ({ signal }) => apiFetch<ReceivablesSummary>(`${invoicesPath}/summary`, { signal }),
    staleTime: 0,
  });
}

export function useInvoiceDetail(id: string) {
  return useQuery({
    queryKey: invoiceKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<InvoiceDetailResponse>(invoicePath(id), { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

/** A change to an invoice: its detail, the lists and the A/R figures load again. */
function useInvoiceMutation<Variables, Answer>(request: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: invoiceKeys.all }), queryClient.invalidateQueries({ queryKey: ['dashboard'] })]),
  });
}

export const useCreateInvoiceFromWorkOrder = () =>
  useInvoiceMutation((workOrderId: string) => apiFetch<InvoiceDetailResponse>(`/api/admin/work-orders/${encodeURIComponent(workOrderId)}/invoice`, { method: 'POST' }));

export const useUpdateDraft = (id: string) => useInvoiceMutation((body: InvoiceDraftUpdate) => apiFetch<InvoiceDetailResponse>(invoicePath(id), { method: 'PUT', body }));

export const useIssueInvoice = (id: string) => useInvoiceMutation(() => apiFetch<InvoiceDetailResponse>(`${invoicePath(id)}/issue`, { method: 'POST' }));

export const useVoidInvoice = (id: string) =>
  useInvoiceMutation((reason: string) => apiFetch<InvoiceDetailResponse>(`${invoicePath(id)}/void`, { method: 'POST', body: { reason } }));

export const useRecordPayment = (id: string) => useInvoiceMutation((body: PaymentCreate) => apiFetch(`${invoicePath(id)}/payments`, { method: 'POST', body }));

export const useRefundPayment = (id: string) =>
  useInvoiceMutation(({ paymentId, ...body }: RefundCreate & { paymentId: string }) =>
    apiFetch(`${invoicePath(id)}/payments/${encodeURIComponent(paymentId)}/refunds`, { method: 'POST', body }),
  );

export const useCreateCreditNote = (id: string) =>
  useInvoiceMutation((body: CreditNoteCreate) => apiFetch<InvoiceDetailResponse>(`${invoicePath(id)}/credit-notes`, { method: 'POST', body }));

export const useApplyCredit = (id: string) =>
  useInvoiceMutation((creditNoteId: string) => apiFetch<InvoiceDetailResponse>(`${invoicePath(id)}/apply-credit`, { method: 'POST', body: { creditNoteId } }));
