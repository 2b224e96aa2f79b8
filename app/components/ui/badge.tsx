import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'info' | 'primary' | 'success' | 'warning' | 'danger' | 'accent';

// Dark text on a light tint: every pair is above 7:1.
const toneClass: Record<BadgeTone, string> = {
  neutral: 'bg-slate-100 text-slate-800 ring-slate-300',
  info: 'bg-sky-50 text-sky-900 ring-sky-300',
  primary: 'bg-brand-50 text-brand-800 ring-brand-100',
  success: 'bg-green-50 text-green-900 ring-green-300',
  warning: 'bg-amber-50 text-amber-900 ring-amber-300',
  danger: 'bg-red-50 text-red-800 ring-red-300',
  accent: 'bg-orange-50 text-accent-800 ring-orange-300',
};

/** A small label ("Residential", "Completed"): text, never colour alone. */
export function Badge({ tone = 'neutral', children, className = '' }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${toneClass[tone]} ${className}`}>
      {children}
    </span>
  );
}
