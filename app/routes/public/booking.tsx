import { openingHoursLabel, telHref } from '#shared/company-profile.ts';
import { serviceCallFeeFrom } from '#shared/business.ts';
import { BookingFlow } from '#client/features/booking/index.ts';
import { PhoneIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';

export const meta = () =>
  pageMeta({
    title: `Book HVAC Service Online | ${company.name}`,
    description: `Book an AC or heating service visit online in Bluffton, Hilton Head Island and the Low Country: choose a real arrival time our technicians can make.`,
    path: '/BookingPage',
  });

/** Online booking into open arrival windows (issue 21; footer 'Contact', header 'Contact Us' on phones). */
export default function BookingPage() {
  return (
    <>
      <PageHero
        eyebrow="Contact us"
        title="Book a Service Visit"
        lead={
          <p>
            Pick the service, and choose an arrival time our technicians can really make. You get the confirmation by e-mail right
            away. Service calls start at ${serviceCallFeeFrom}.
          </p>
        }
      />
      <section aria-label="Online booking" className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-10 px-4 py-12 lg:grid-cols-[1.6fr_1fr]">
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
          <BookingFlow />
        </div>
        <aside aria-labelledby="booking-contact" className="space-y-6 break-words">
          <div className="rounded-xl bg-brand-50 p-6">
            <h2 id="booking-contact" className="text-xl font-bold text-brand-900">
              Rather call or write?
            </h2>
            <p className="mt-3">
              <a href={telHref(company.phone)} className="inline-flex items-center gap-2 text-xl font-bold text-brand-800 underline-offset-4 hover:underline">
                <PhoneIcon className="h-5 w-5" aria-hidden="true" />
                {company.phone}
              </a>
            </p>
            <p className="mt-2">
              <a href={`mailto:${company.email}`} className="font-semibold text-brand-800 underline underline-offset-4">
                {company.email}
              </a>
            </p>
            <h3 className="mt-5 font-semibold text-slate-900">Office hours</h3>
            <ul className="mt-1 text-slate-700">
              {company.openingHours.map((span) => (
                <li key={span.firstDay}>{openingHoursLabel(span)}</li>
              ))}
            </ul>
          </div>
          <div className="rounded-xl bg-red-50 p-6">
            <h2 className="text-xl font-bold text-red-900">Emergency?</h2>
            <p className="mt-2 text-slate-800">
              No heat in a freeze, water pouring from the air handler, a burning smell from the system: call our 24/7 line now. If
              you smell gas, leave the house first and call your gas company or 911.
            </p>
            <a href={telHref(company.emergencyPhone)} className="mt-3 inline-block text-2xl font-bold text-red-800 underline-offset-4 hover:underline">
              {company.emergencyPhone}
            </a>
          </div>
        </aside>
      </section>
    </>
  );
}
