/** Shared class names for the public pages' buttons and text, so every page looks the same. */
export const buttonClass = {
  /** Orange call to action: white on accent-700 passes AA contrast. */
  primary:
    'inline-flex items-center justify-center gap-2 rounded-lg bg-accent-700 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-accent-800',
  /** Navy outline for light backgrounds. */
  secondary:
    'inline-flex items-center justify-center gap-2 rounded-lg border-2 border-brand-700 px-6 py-3 text-base font-semibold text-brand-800 transition-colors hover:bg-brand-50',
  /** White outline for dark backgrounds. */
  inverse:
    'inline-flex items-center justify-center gap-2 rounded-lg border-2 border-white/80 px-6 py-3 text-base font-semibold text-white transition-colors hover:bg-white/10',
} as const;

export const eyebrowClass = 'text-sm font-semibold uppercase tracking-widest text-accent-700';
export const linkClass = 'font-semibold text-brand-700 underline decoration-2 underline-offset-4 hover:text-brand-900';
