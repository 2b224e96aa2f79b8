import type { ComponentProps, ReactNode } from 'react';
import { Button } from './button.tsx';

const cardClass = 'rounded-lg border border-slate-200 bg-white shadow-sm';

/** Class names of a card, for elements that are not a <div> (an <li>, an <article>). */
export function cardClassName(extra = 'p-4'): string {
  return `${cardClass} ${extra}`.trim();
}

/** A white panel with a border and a light shadow: the screens' search boxes, details and forms. */
export function Card({ className = 'p-4', ...props }: ComponentProps<'div'>) {
  return <div className={cardClassName(className)} {...props} />;
}

/** "Loading…" in a card, announced politely. */
export function LoadingCard({ children }: { children: ReactNode }) {
  return (
    <p role="status" className={cardClassName('p-8 text-center text-slate-600')}>
      {children}
    </p>
  );
}

/** A dashed card for an empty list: a title and an optional line or action under it. */
export function EmptyCard({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
      <p className="text-lg font-semibold text-slate-900">{title}</p>
      {children}
    </div>
  );
}

/** A list that could not be loaded: what failed, an optional detail, and "Try again". */
export function LoadErrorCard({ title, detail, isRetrying, onRetry }: { title: string; detail?: ReactNode; isRetrying: boolean; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-center text-red-800">
      <p className="font-semibold">{title}</p>
      {detail ? <p className="mt-1 text-sm">{detail}</p> : null}
      <Button className="mt-4" onClick={onRetry} disabled={isRetrying}>
        {isRetrying ? 'Retrying...' : 'Try again'}
      </Button>
    </div>
  );
}
