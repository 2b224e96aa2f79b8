import { useEffect, useState } from 'react';
import type { SetURLSearchParams } from 'react-router';

/** How long typing pauses before a list's search reaches the URL (and the server). */
export const searchDebounceMs = 250;

/**
 * A list's search box kept in the URL (?search=): the box follows the URL (back, forward, reload)
 * and the URL follows the box after a pause, resetting the page. Returns the text being typed,
 * its setter, and the search the list should load.
 */
export function useUrlSearch(searchParams: URLSearchParams, setSearchParams: SetURLSearchParams) {
  const urlSearch = searchParams.get('search') ?? '';
  const [draft, setDraft] = useState(urlSearch);
  const [syncedSearch, setSyncedSearch] = useState(urlSearch);
  if (syncedSearch !== urlSearch) {
    setSyncedSearch(urlSearch);
    // Keep what is being typed ("john " stays "john ") when the URL only caught up with it.
    if (draft.trim() !== urlSearch.trim()) setDraft(urlSearch);
  }

  useEffect(() => {
    if (draft.trim() === urlSearch.trim()) return;
    const timer = window.setTimeout(() => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (draft.trim()) next.set('search', draft.trim());
          else next.delete('search');
          next.delete('page');
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    }, searchDebounceMs);
    return () => window.clearTimeout(timer);
  }, [draft, urlSearch, setSearchParams]);

  return { draft, setDraft, search: urlSearch.trim() };
}

/** The same URL parameters on another page of a list (?page=, left out for the first page). */
export function withPage(current: URLSearchParams, page: number): URLSearchParams {
  const params = new URLSearchParams(current);
  if (page <= 1) params.delete('page');
  else params.set('page', String(page));
  return params;
}
