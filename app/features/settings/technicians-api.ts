import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TechnicianCreateInput,
  TechnicianSettingsListResponse,
  TechnicianSettingsResponse,
  TechnicianUpdateInput,
} from '#shared/technician.ts';
import { apiFetch } from '#client/lib/api.ts';

/** Under the ['technicians'] prefix: the live 'technicians' topic refreshes it with the pickers. */
export const technicianSettingsKey = ['technicians', 'settings'] as const;

export function useTechnicianSettings() {
  return useQuery({
    queryKey: technicianSettingsKey,
    queryFn: ({ signal }) => apiFetch<TechnicianSettingsListResponse>('/api/admin/settings/technicians', { signal }),
  });
}

/** A technician's name, colour or active flag shows on the calendar, the work-order lists and every picker. */
function useInvalidateTechnicianViews() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['technicians'] }),
      queryClient.invalidateQueries({ queryKey: ['calendar'] }),
      queryClient.invalidateQueries({ queryKey: ['work-orders'] }),
    ]);
}

export function useAddTechnician() {
  const invalidate = useInvalidateTechnicianViews();
  return useMutation({
    mutationFn: (input: TechnicianCreateInput) => apiFetch<TechnicianSettingsResponse>('/api/admin/settings/technicians', { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateTechnician() {
  const invalidate = useInvalidateTechnicianViews();
  return useMutation({
    mutationFn: ({ id, ...input }: TechnicianUpdateInput & { id: string }) =>
      apiFetch<TechnicianSettingsResponse>(`/api/admin/settings/technicians/${id}`, { method: 'PATCH', body: input }),
    onSuccess: invalidate,
  });
}
