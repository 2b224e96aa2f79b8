import type { ReactNode } from 'react';

export type LegalSection = { id: string; title: string; body: ReactNode };

type LegalDocumentProps = {
  title: string;
  /** e.g. 'November 2026': shown as 'Last updated November 2026'. */
  lastUpdated: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
};

/** A policy page: title, last-updated line, contents list and numbered sections, set for reading. */
export function LegalDocument({ title, lastUpdated, intro, sections }: LegalDocumentProps) {
  return (
    <article aria-labelledby="page-title" className="px-4 py-12 md:py-16">
      <div className="mx-auto max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-widest text-accent-700">Legal</p>
        <h1 id="page-title" className="mt-2 text-4xl font-extrabold tracking-tight text-brand-900 md:text-5xl">
          {title}
        </h1>
        <p className="mt-3 text-slate-600">Last updated {lastUpdated}</p>
        <div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-700">{intro}</div>

        <nav aria-labelledby="contents-title" className="mt-10 rounded-2xl bg-slate-50 p-6">
          <h2 id="contents-title" className="text-base font-bold text-brand-900">
            Contents
          </h2>
          <ol className="mt-3 grid list-decimal gap-x-8 gap-y-1.5 pl-5 text-brand-700 sm:grid-cols-2">
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="underline-offset-4 hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>

        {sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mt-12 scroll-mt-24">
            <h2 id={`${section.id}-title`} className="text-2xl font-bold text-brand-900">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-4 space-y-4 leading-relaxed text-slate-700 [&_a]:font-semibold [&_a]:[overflow-wrap:anywhere] [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-brand-900 [&_li]:pl-1 [&_strong]:text-slate-900 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
              {section.body}
            </div>
          </section>
        ))}
      </div>
    </article>
  );
}
