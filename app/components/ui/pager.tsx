import { Button } from './button.tsx';

/**
 * Previous / "Page 2 of 5" / Next, in a navigation landmark. Nothing is drawn for a single page.
 * `hasNextPage` overrides the page count when the total is only known up to a cap (`isCapped`
 * then adds "+" to the count).
 */
export function Pager({
  label = 'Pagination',
  page,
  pageCount,
  hasNextPage = page < pageCount,
  isCapped = false,
  className = '',
  onPageChange,
}: {
  label?: string;
  page: number;
  pageCount: number;
  hasNextPage?: boolean;
  isCapped?: boolean;
  className?: string;
  onPageChange: (page: number) => void;
}) {
  if (pageCount <= 1 && !hasNextPage) return null;
  return (
    <nav aria-label={label} className={`flex items-center justify-between gap-3 ${className}`}>
      <Button variant="secondary" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
        Previous
      </Button>
      <p className="text-sm text-slate-700">
        Page {page} of {Math.max(page, pageCount)}
        {isCapped ? '+' : ''}
      </p>
      <Button variant="secondary" onClick={() => onPageChange(page + 1)} disabled={!hasNextPage}>
        Next
      </Button>
    </nav>
  );
}

/** A page number from the URL (?page=): a whole number from 1, else 1. */
export function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
