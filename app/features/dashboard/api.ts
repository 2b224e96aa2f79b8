import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardResponse } from '#shared/dashboard.ts';
import { apiFetch } from '#client/lib/api.ts';

/**
 * The dashboard's query key. A contract: the live-update hook invalidates ['dashboard'] whenever
 * work orders or leads change, so the cards follow without a reload.
 */
export const dashboardKeys = {
  all: ['dashboard'] as const,
};

export function dashboardQuery() {
  return queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) => apiFetch<DashboardResponse>('/api/admin/dashboard', { signal }),
    // Coming back to the dashboard refreshes it (shown from the cache meanwhile): a job started
    // on another screen must not leave the cards behind for the default 30 s.
    staleTime: 0,
  });
}

export function useDashboard() {
  return useQuery(dashboardQuery());
}
