import { Link } from 'react-router';
import { CtaBand } from '#client/features/site/cta-band.tsx';
import { PinIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { siteImages } from '#client/features/site/site-images.ts';
import { linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { estimateResponseHours } from '#shared/business.ts';
import { openingHoursLabel, telHref } from '#shared/company-profile.ts';
import { serviceAreas } from '#shared/service-areas.ts';

const townList = serviceAreas.map((area) => area.name);

export const meta = () =>
  pageMeta({
    title: `Service Areas: ${townList.slice(0, 3).join(', ')} & More | ${company.name}`,
    description: `Heating and air-conditioning service across Beaufort and Jasper Counties: ${townList.join(', ')}. See the ZIP codes we cover and what we know about homes in each town.`,
    path: '/service-areas',
  });

export default function ServiceAreasPage() {
  const hours = company.openingHours.map(openingHoursLabel).join(', ');
  return (
    <>
      <PageHero
        eyebrow="Service Areas"
        title="Areas We Serve"
        lead={
          <p>
            From our base in {company.address.city}, our technicians cover {serviceAreas.length} towns across Beaufort and
            Jasper Counties. Each one has its own kind of homes, and its own heating and cooling quirks.
          </p>
        }
        image={siteImages.hero}
        imageAlt="Low Country evening: a tidal creek, marsh grass, palmetto trees and a raised house with its outdoor unit"
        imageClassName="rounded-3xl shadow-lg"
      />

      <nav aria-label="Towns" className="border-y border-slate-200 bg-white px-4 py-4">
        <ul className="mx-auto flex max-w-6xl flex-wrap gap-2">
          {serviceAreas.map((area) => (
            <li key={area.slug}>
              <a
                href={`#${area.slug}`}
                className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-100"
              >
                <PinIcon className="h-4 w-4 text-accent-700" />
                {area.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="bg-slate-50 px-4 py-14 md:py-20">
        <div className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-2">
          {serviceAreas.map((area) => (
            <section
              key={area.slug}
              id={area.slug}
              aria-labelledby={`${area.slug}-title`}
              className="scroll-mt-24 rounded-2xl bg-white p-6 shadow-sm md:p-8"
            >
              <p className="text-sm font-semibold uppercase tracking-widest text-accent-700">{area.county}</p>
              <h2 id={`${area.slug}-title`} className="mt-1 text-2xl font-bold text-brand-900">
                {area.name}, SC
              </h2>
              <p className="mt-3 leading-relaxed text-slate-700">{area.description}</p>
              <div className="mt-5 flex flex-wrap items-center gap-2">
                <h3 className="text-sm font-semibold text-slate-700">ZIP codes:</h3>
                <ul className="flex flex-wrap gap-2" aria-label={`ZIP codes we serve in ${area.name}`}>
                  {area.zipCodes.map((zip) => (
                    <li key={zip} className="rounded-md bg-slate-100 px-2.5 py-1 font-mono text-sm text-slate-800">
                      {zip}
                    </li>
                  ))}
                </ul>
              </div>
              <p className="mt-5">
                <Link to="/estimate" className={linkClass}>
                  Request service in {area.name}
                </Link>
              </p>
            </section>
          ))}
        </div>
      </div>

      <section aria-labelledby="outside-area-title" className="px-4 pt-14 md:pt-20">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id="outside-area-title" className="text-3xl font-bold tracking-tight text-brand-900">
            Don&rsquo;t see your town?
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">
            We often help customers just beyond these towns, and on Daufuskie Island by arrangement. Call{' '}
            <a href={telHref(company.phone)} className={linkClass}>
              {company.phone}
            </a>{' '}
            ({hours}) and we will tell you straight away whether we can get to you.
          </p>
        </div>
      </section>

      <CtaBand id="areas-cta" title="Local technicians, nearby trucks" actionLabel="Request a free estimate">
        <p>Wherever you are in the Low Country, tell us what you need and we will get back to you within {estimateResponseHours} hours.</p>
      </CtaBand>
    </>
  );
}
