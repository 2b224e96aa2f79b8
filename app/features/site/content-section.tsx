import type { ReactNode } from 'react';
import { eyebrowClass } from './ui.ts';

type Tone = 'white' | 'muted' | 'tint';
const toneClass: Record<Tone, string> = {
  white: 'bg-white',
  muted: 'bg-slate-50',
  tint: 'bg-brand-50',
};

type ContentSectionProps = {
  /** Unique on the page: the heading gets `${id}-title` and the section is labelled by it. */
  id: string;
  title: ReactNode;
  eyebrow?: string;
  intro?: ReactNode;
  tone?: Tone;
  children?: ReactNode;
  /** Centre the heading block (for short, symmetric sections). */
  centered?: boolean;
};

/** A page section: a landmark labelled by its <h2>, with an optional eyebrow and intro. */
export function ContentSection({ id, title, eyebrow, intro, tone = 'white', children, centered = false }: ContentSectionProps) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`${toneClass[tone]} scroll-mt-20 px-4 py-14 md:py-20`}>
      <div className="mx-auto max-w-6xl">
        <div className={centered ? 'mx-auto max-w-3xl text-center' : 'max-w-3xl'}>
          {eyebrow ? <p className={eyebrowClass}>{eyebrow}</p> : null}
          <h2 id={`${id}-title`} className="mt-2 text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">
            {title}
          </h2>
          {intro ? <div className="mt-4 space-y-4 text-lg leading-relaxed text-slate-700">{intro}</div> : null}
        </div>
        {children ? <div className="mt-10">{children}</div> : null}
      </div>
    </section>
  );
}
