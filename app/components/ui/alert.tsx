import type { ReactNode } from 'react';

const toneClass = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-green-200 bg-green-50 text-green-900',
  info: 'border-brand-100 bg-brand-50 text-brand-900',
} as const;

/**
 * A message box. Errors are `role="alert"` (announced at once); the others are polite statuses.
 * Render it inside a live region that is already on the page when the message must be announced.
 */
export function Alert({ tone = 'error', children, className = '' }: { tone?: keyof typeof toneClass; children: ReactNode; className?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border p-3 text-sm ${toneClass[tone]} ${className}`}>
      {children}
    </div>
  );
}
