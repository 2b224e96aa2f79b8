import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { company } from '#client/lib/company.ts';
import { telHref } from '#shared/company-profile.ts';
import { PhoneIcon } from './icons.tsx';
import { buttonClass } from './ui.ts';

type CtaBandProps = {
  id: string;
  title: string;
  children: ReactNode;
  /** The main button; it goes to the estimate form unless told otherwise. */
  actionLabel: string;
  actionTo?: string;
};

/** A closing call to action: a navy panel with the main button and the phone number. */
export function CtaBand({ id, title, children, actionLabel, actionTo = '/estimate' }: CtaBandProps) {
  return (
    <section aria-labelledby={`${id}-title`} className="bg-white px-4 pt-8 pb-14 md:pt-10 md:pb-20">
      <div className="relative mx-auto flex max-w-6xl flex-col gap-8 overflow-hidden rounded-3xl bg-gradient-to-br from-brand-800 to-brand-900 px-6 py-10 text-white shadow-xl md:px-12 md:py-14 lg:flex-row lg:items-center lg:justify-between">
        <div aria-hidden="true" className="absolute -top-24 -right-24 h-64 w-64 rounded-full bg-white/5" />
        <div className="relative max-w-2xl">
          <h2 id={`${id}-title`} className="text-3xl font-bold tracking-tight md:text-4xl">
            {title}
          </h2>
          <div className="mt-3 text-lg text-slate-200">{children}</div>
        </div>
        <div className="relative flex shrink-0 flex-col gap-3 sm:flex-row">
          <Link to={actionTo} className={`${buttonClass.primary} whitespace-nowrap`}>
            {actionLabel}
          </Link>
          <a href={telHref(company.phone)} className={`${buttonClass.inverse} whitespace-nowrap`}>
            <PhoneIcon className="h-5 w-5" />
            <span>
              <span className="sr-only">Call </span>
              {company.phone}
            </span>
          </a>
        </div>
      </div>
    </section>
  );
}
