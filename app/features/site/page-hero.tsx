import type { ReactNode } from 'react';
import { ResponsiveImage } from './responsive-image.tsx';
import type { SiteImage } from './site-images.ts';
import { eyebrowClass } from './ui.ts';

type PageHeroProps = {
  /** Short label above the title (a section name), shown in small capitals. */
  eyebrow: string;
  /** The page's one <h1>. */
  title: string;
  lead: ReactNode;
  /** Buttons under the lead. */
  actions?: ReactNode;
  image?: SiteImage;
  imageAlt?: string;
  /** Extra classes for the picture, e.g. rounded corners for a full-bleed scene. */
  imageClassName?: string;
};

/**
 * The top of an inner page: eyebrow, the page's <h1>, a lead paragraph and actions, with the page's
 * illustration beside them on wide screens. The text never waits for the picture.
 */
export function PageHero({ eyebrow, title, lead, actions, image, imageAlt = '', imageClassName = '' }: PageHeroProps) {
  return (
    <section aria-labelledby="page-title" className="overflow-hidden bg-gradient-to-b from-brand-50 to-white">
      <div
        className={`mx-auto grid max-w-6xl items-center gap-8 px-4 py-12 md:py-16 ${image ? 'md:grid-cols-[1.1fr_0.9fr]' : ''}`}
      >
        <div>
          <p className={eyebrowClass}>{eyebrow}</p>
          <h1 id="page-title" className="mt-3 text-4xl font-extrabold tracking-tight text-brand-900 md:text-5xl">
            {title}
          </h1>
          <div className="mt-5 max-w-2xl text-lg leading-relaxed text-slate-700">{lead}</div>
          {actions ? <div className="mt-8 flex flex-wrap gap-3">{actions}</div> : null}
        </div>
        {image ? (
          <div className="mx-auto w-full max-w-sm md:max-w-none">
            <ResponsiveImage
              image={image}
              alt={imageAlt}
              sizes="(min-width: 1152px) 500px, (min-width: 768px) 42vw, 384px"
              priority
              className={`h-auto w-full ${imageClassName}`}
            />
          </div>
        ) : null}
      </div>
    </section>
  );
}
