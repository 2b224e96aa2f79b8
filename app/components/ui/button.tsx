import type { ComponentProps } from 'react';

export type ButtonVariant = 'primary' | 'accent' | 'secondary' | 'danger' | 'destructive' | 'ghost';
export type ButtonSize = 'sm' | 'md';

const variantClass: Record<ButtonVariant, string> = {
  /** Navy: white on brand-700 is well above AA. */
  primary: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800',
  /** Orange call to action: white on accent-700 passes AA. */
  accent: 'bg-accent-700 text-white shadow-sm hover:bg-accent-800',
  secondary: 'border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50',
  /** Outlined red: a destructive action that asks first. */
  danger: 'border border-red-300 bg-white text-red-700 shadow-sm hover:bg-red-50',
  /** Solid red: the confirmation of a destructive action. */
  destructive: 'bg-red-700 text-white shadow-sm hover:bg-red-800',
  ghost: 'text-brand-700 hover:bg-brand-50',
};

const sizeClass: Record<ButtonSize, string> = {
  sm: 'min-h-9 px-3 py-1.5 text-sm',
  md: 'min-h-11 px-4 py-2 text-sm sm:text-base',
};

/** Class names of a button, for <button>, <Link> and <label> alike. */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra = ''): string {
  return [
    'inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
    variantClass[variant],
    sizeClass[size],
    extra,
  ]
    .filter(Boolean)
    .join(' ');
}

type ButtonProps = ComponentProps<'button'> & { variant?: ButtonVariant; size?: ButtonSize };

/** A button that is `type="button"` unless told otherwise, so it never submits a form by accident. */
export function Button({ variant = 'primary', size = 'md', className = '', type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}
