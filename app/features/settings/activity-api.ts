import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditListResponse } from '#shared/audit.ts';
import type { TechnicianListResponse } from '#shared/technician.ts';
import { apiFetch } from '#client/lib/api.ts';

export type ActivityParams = { entityType: string; entityId: string; page: number };

export const activityKeys = {
  all: ['settings', 'activity'] as const,
  list: (params: ActivityParams) => [...activityKeys.all, params] as const,
};

export function useActivity(params: ActivityParams) {
  return useQuery({
    queryKey: activityKeys.list(params),
    queryFn: ({ signal }) => {
      const search = new URLSearchParams();
      if (params.entityType) search.set('entityType', params.entityType);
      if (params.entityId) search.set('entityId', params.entityId);
      search.set('page', String(params.page));
      return apiFetch<AuditListResponse>(`/api/admin/settings/activity?${search.toString()}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** Every technician, inactive ones too: the log names the technician behind a technicianId. */
export function useAllTechnicianNames() {
  return useQuery({
    queryKey: ['technicians', 'all'] as const,
    queryFn: ({ signal }) => apiFetch<TechnicianListResponse>('/api/admin/technicians', { signal }),
    select: (data) => new Map(data.technicians.map((technician) => [technician.id, technician.name])),
    staleTime: 60_000,
  });
}
