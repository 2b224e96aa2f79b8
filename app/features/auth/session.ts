import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { LoginInput, SessionResponse } from '#shared/auth.ts';
import { apiFetch } from '#client/lib/api.ts';

export const authKeys = {
  session: ['auth', 'session'] as const,
};

export const sessionQuery = queryOptions({
  queryKey: authKeys.session,
  queryFn: ({ signal }) => apiFetch<SessionResponse>('/api/admin/session', { signal }),
  staleTime: 60_000,
});

/**
 * Whether the signed-in staff member is an administrator: screens hide what only an admin may do
 * (settings, deleting customers and photos; decision 018-f). The server enforces it regardless.
 */
export function useIsAdmin(): boolean {
  return useQuery(sessionQuery).data?.user.role === 'admin';
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => apiFetch<SessionResponse>('/api/auth/login', { method: 'POST', body: input }),
    onSuccess: (session) => queryClient.setQueryData(authKeys.session, session),
  });
}

/** Ends the session on the server, forgets everything cached for it, and goes to the login page. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiFetch<void>('/api/auth/logout', { method: 'POST' }),
    onSettled: () => {
      queryClient.clear();
      void navigate('/admin/login', { replace: true });
    },
  });
}
