import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LeadStatus } from '#shared/enums.ts';
import type {
  EstimateLeadResponse,
  LeadConversionInput,
  LeadConversionProposal,
  LeadConversionResult,
  LeadDetailResponse,
  LeadFilter,
  LeadKind,
  LeadListResponse,
  LeadStats,
} from '#shared/lead.ts';
import { ApiError, apiFetch } from '#client/lib/api.ts';

export const leadPageSize = 25;

export type LeadListParams = { filter: LeadFilter; search: string; page: number; pageSize?: number };

/**
 * Query keys of the lead screen. Contract (issue 7): every key starts with ['leads'], so the live
 * updates invalidate the whole screen with one call when estimate_requests or ai_leads change.
 */
export const leadKeys = {
  all: ['leads'] as const,
  lists: () => [...leadKeys.all, 'list'] as const,
  list: (params: LeadListParams) =>
    [...leadKeys.lists(), { filter: params.filter, search: params.search, page: params.page, pageSize: params.pageSize ?? leadPageSize }] as const,
  stats: () => [...leadKeys.all, 'stats'] as const,
  detail: (kind: LeadKind, id: string) => [...leadKeys.all, 'detail', kind, id] as const,
  conversion: (id: string) => [...leadKeys.all, 'conversion', id] as const,
};

const leadsPath = '/api/admin/leads';
const leadPath = (kind: LeadKind, id: string) => `${leadsPath}/${kind}/${encodeURIComponent(id)}`;

export function leadListQuery(params: LeadListParams) {
  const search = new URLSearchParams({
    filter: params.filter,
    search: params.search,
    page: String(params.page),
    pageSize: String(params.pageSize ?? leadPageSize),
  });
  return queryOptions({
    queryKey: leadKeys.list(params),
    queryFn: ({ signal }) => apiFetch<LeadListResponse>(`${leadsPath}?${search}`, { signal }),
  });
}

export function useLeadList(params: LeadListParams) {
  return useQuery({ ...leadListQuery(params), placeholderData: keepPreviousData });
}

export function useLeadStats() {
  return useQuery({ queryKey: leadKeys.stats(), queryFn: ({ signal }) => apiFetch<LeadStats>(`${leadsPath}/stats`, { signal }) });
}

export function useLead(kind: LeadKind, id: string) {
  return useQuery({
    queryKey: leadKeys.detail(kind, id),
    queryFn: ({ signal }) => apiFetch<LeadDetailResponse>(leadPath(kind, id), { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

export function useConversionProposal(id: string) {
  return useQuery({
    queryKey: leadKeys.conversion(id),
    queryFn: ({ signal }) => apiFetch<LeadConversionProposal>(`${leadPath('estimate', id)}/conversion`, { signal }),
    // The dialog starts from the proposal as it was when opened; staff edit it from there.
    staleTime: Infinity,
    gcTime: 0,
  });
}

/** Any status, with the version the user saw; the whole screen refreshes afterwards, success or not. */
export function useChangeLeadStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, expectedUpdatedAt }: { id: string; status: LeadStatus; expectedUpdatedAt: string }) =>
      apiFetch<EstimateLeadResponse>(`${leadPath('estimate', id)}/status`, { method: 'POST', body: { status, expectedUpdatedAt } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leadKeys.all }),
  });
}

export function useConvertLead(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LeadConversionInput) => apiFetch<LeadConversionResult>(`${leadPath('estimate', id)}/convert`, { method: 'POST', body }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: leadKeys.all }),
        // A new work order and possibly a new customer: their screens must not show stale lists.
        queryClient.invalidateQueries({ queryKey: ['work-orders'] }),
        queryClient.invalidateQueries({ queryKey: ['customers'] }),
      ]),
  });
}
