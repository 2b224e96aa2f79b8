import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AgreementCreateInput,
  AgreementResponse,
  AgreementSummary,
  AgreementUpdateInput,
  CustomerAgreementsResponse,
  VisitsDueParams,
  VisitsDueResponse,
} from '#shared/agreement.ts';
import type { AgreementSignupConfirmInput, AgreementSignupListParams, AgreementSignupListResponse, AgreementSignupResponse } from '#shared/agreement-signup.ts';
import { apiFetch } from '#client/lib/api.ts';

/**
 * Under ['agreements'] (live topic maintenance_agreements, and work_orders: a visit scheduled or
 * done leaves Visits due): every agreement view refreshes on a change from any screen or instance.
 */
export const agreementKeys = {
  all: ['agreements'] as const,
  customer: (customerId: string) => ['agreements', 'customer', customerId] as const,
  visitsDue: (query: string) => ['agreements', 'visits-due', query] as const,
  summary: () => ['agreements', 'summary'] as const,
  /** The site's plan sign-ups: their table notifies on the maintenance_agreements topic too. */
  signups: (query: string) => ['agreements', 'signups', query] as const,
};

const customerPath = (customerId: string) => `/api/admin/customers/${encodeURIComponent(customerId)}/agreements`;
const agreementPath = (id: string) => `/api/admin/agreements/${encodeURIComponent(id)}`;

export function visitsDueQueryString(params: VisitsDueParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '' && value !== null) search.set(key, String(value));
  }
  return search.toString();
}

export function useCustomerAgreements(customerId: string) {
  return useQuery({
    queryKey: agreementKeys.customer(customerId),
    queryFn: ({ signal }) => apiFetch<CustomerAgreementsResponse>(customerPath(customerId), { signal }),
  });
}

export function useVisitsDue(params: VisitsDueParams) {
  const query = visitsDueQueryString(params);
  return useQuery({
    queryKey: agreementKeys.visitsDue(query),
    queryFn: ({ signal }) => apiFetch<VisitsDueResponse>(`/api/admin/agreements/visits-due?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAgreementSummary() {
  return useQuery({
    queryKey: agreementKeys.summary(),
    queryFn: ({ signal }) => apiFetch<AgreementSummary>('/api/admin/agreements/summary', { signal }),
  });
}

function useInvalidateAgreements() {
  const queryClient = useQueryClient();
  // A sale or a cancellation also makes or cancels work orders (the profile's history, the lists).
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: agreementKeys.all }), queryClient.invalidateQueries({ queryKey: ['customers'] }), queryClient.invalidateQueries({ queryKey: ['work-orders'] })]);
}

export function useCreateAgreement(customerId: string) {
  const invalidate = useInvalidateAgreements();
  return useMutation({
    mutationFn: (input: AgreementCreateInput) => apiFetch<AgreementResponse>(customerPath(customerId), { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateAgreement(id: string) {
  const invalidate = useInvalidateAgreements();
  return useMutation({
    mutationFn: (input: AgreementUpdateInput) => apiFetch<AgreementResponse>(agreementPath(id), { method: 'PUT', body: input }),
    onSuccess: invalidate,
  });
}

export function useCancelAgreement(id: string) {
  const invalidate = useInvalidateAgreements();
  return useMutation({
    mutationFn: (reason: string) => apiFetch<AgreementResponse>(`${agreementPath(id)}/cancel`, { method: 'POST', body: { reason } }),
    onSuccess: invalidate,
  });
}

export function useAgreementSignups(params: AgreementSignupListParams) {
  const query = visitsDueQueryString(params);
  return useQuery({
    queryKey: agreementKeys.signups(query),
    queryFn: ({ signal }) => apiFetch<AgreementSignupListResponse>(`/api/admin/agreement-signups?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

const signupPath = (id: string) => `/api/admin/agreement-signups/${encodeURIComponent(id)}`;

export function useConfirmAgreementSignup(id: string) {
  const invalidate = useInvalidateAgreements();
  return useMutation({
    mutationFn: (input: AgreementSignupConfirmInput) => apiFetch<AgreementSignupResponse>(`${signupPath(id)}/confirm`, { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useDeclineAgreementSignup(id: string) {
  const invalidate = useInvalidateAgreements();
  return useMutation({
    mutationFn: (reason: string) => apiFetch<AgreementSignupResponse>(`${signupPath(id)}/decline`, { method: 'POST', body: { reason } }),
    onSuccess: invalidate,
  });
}
