import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { authKeys } from '#client/features/auth/index.ts';
import { ApiError } from '#client/lib/api.ts';
import '#client/lib/zod-client.ts';

/**
 * Server-state cache for the staff screens (login included). It lives here, not in the root, so
 * the public pages never download TanStack Query.
 */
export default function StaffProviders() {
  const [queryClient] = useState(() => {
    // Any staff call answered 401 means the session is gone (signed out elsewhere, deactivated,
    // expired): the session is checked again and the admin layout then sends the user to sign in.
    const onError = (error: unknown, queryKey?: readonly unknown[]) => {
      const isSessionQuery = queryKey?.[0] === authKeys.session[0] && queryKey?.[1] === authKeys.session[1];
      if (error instanceof ApiError && error.code === 'UNAUTHENTICATED' && !isSessionQuery) {
        void client.invalidateQueries({ queryKey: authKeys.session });
      }
    };
    const client: QueryClient = new QueryClient({
      queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
      mutationCache: new MutationCache({ onError: (error) => onError(error) }),
      defaultOptions: { queries: { staleTime: 30_000, retry: false, refetchOnWindowFocus: false } },
    });
    return client;
  });
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
