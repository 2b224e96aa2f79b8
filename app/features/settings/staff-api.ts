import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddStaffInput, ChangeOwnPasswordInput, PasswordSetup, StaffChangeResponse as StaffChange, StaffListResponse } from '#shared/auth.ts';
import type { StaffRole } from '#shared/enums.ts';
import { apiFetch } from '#client/lib/api.ts';

/** Query keys of the staff accounts (settings) and of the signed-in user's own account. */
export const staffKeys = { all: ['staff'] as const, list: () => [...staffKeys.all, 'list'] as const };
export const accountKeys = { all: ['account'] as const, password: () => [...accountKeys.all, 'password'] as const };

const staffPath = '/api/admin/settings/staff';
const staffMemberPath = (id: string) => `${staffPath}/${encodeURIComponent(id)}`;

export const staffListQuery = queryOptions({
  queryKey: staffKeys.list(),
  queryFn: ({ signal }) => apiFetch<StaffListResponse>(staffPath, { signal }),
});

export function useStaffList() {
  return useQuery(staffListQuery);
}

/** Every staff change refreshes the list (who is active, roles, who has a password yet). */
function useStaffMutation<Variables>(mutationFn: (variables: Variables) => Promise<StaffChange>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: staffKeys.all,
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export function useAddStaff() {
  return useStaffMutation((input: AddStaffInput) => apiFetch<StaffChange>(staffPath, { method: 'POST', body: input }));
}

export function useChangeRole() {
  return useStaffMutation(({ id, role, technicianId }: { id: string; role: StaffRole; technicianId?: string | null }) =>
    apiFetch<StaffChange>(`${staffMemberPath(id)}/role`, { method: 'PUT', body: role === 'technician' ? { role, technicianId } : { role } }),
  );
}

export function useSetActive() {
  return useStaffMutation(({ id, active }: { id: string; active: boolean }) =>
    apiFetch<StaffChange>(`${staffMemberPath(id)}/${active ? 'reactivate' : 'deactivate'}`, { method: 'POST' }),
  );
}

export function useResetPassword() {
  return useStaffMutation(({ id, setup }: { id: string; setup: PasswordSetup }) =>
    apiFetch<StaffChange>(`${staffMemberPath(id)}/password`, { method: 'POST', body: setup }),
  );
}

export function useChangeOwnPassword() {
  return useMutation({
    mutationKey: accountKeys.password(),
    mutationFn: (input: ChangeOwnPasswordInput) => apiFetch<void>('/api/admin/account/password', { method: 'PUT', body: input }),
  });
}

// Moved to lib/api.ts (the technician app uses them too); re-exported for the settings screens.
export { fieldErrorOf, messageOf } from '#client/lib/api.ts';
