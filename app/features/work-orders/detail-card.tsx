import { useId, type ReactNode } from 'react';
import { cardClassName } from '#client/components/ui/card.tsx';

/** A message shown on the work order screen: the outcome of a status change, a save, a merge. */
export type Notice = { tone: 'success' | 'error' | 'info'; text: string };

/** One section of the work order screen: a card named by its heading, with optional actions beside it. */
export function DetailCard({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={cardClassName('p-4 sm:p-5')}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A term and its value inside a section's <dl>. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}
