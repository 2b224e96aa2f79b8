import { companyStats } from '#shared/business.ts';
import { openingHoursLabel, telHref } from '#shared/company-profile.ts';
import { EstimateForm } from '#client/features/estimates/estimate-form.tsx';
import { CheckIcon, PhoneIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';

export const meta = () =>
  pageMeta({
    title: `Free HVAC Estimate in Bluffton & Hilton Head | ${company.name}`,
    description: `Request a free, no-obligation estimate for AC or heating installation, repair, maintenance or ductwork. ${company.name} answers within 24 hours.`,
    path: '/estimate',
  });

const benefits = [
  'Free, no-obligation estimates for installations and major repairs',
  'Licensed, insured and background-checked technicians',
  'Upfront flat-rate pricing: you approve the price before we start',
  'Options at every budget, with financing on new systems',
  'Answer within 24 hours, usually the same business day',
] as const;

const steps = [
  { title: 'Send your request', text: 'Tell us what is going on and when suits you. It takes about a minute.' },
  { title: 'We call you back', text: 'A comfort advisor calls within 24 hours to confirm the details and a visit time.' },
  { title: 'On-site assessment', text: 'A technician inspects your system, measures the home and answers your questions.' },
  { title: 'Your written estimate', text: 'Clear options and a fixed price in writing. No pressure, no surprise fees.' },
] as const;

export default function EstimatePage() {
  return (
    <>
      <PageHero
        eyebrow="Free estimate"
        title="Get Your FREE Estimate"
        lead={<p>Installation, replacement, repair or a tune-up: tell us about your home or business and we will get back to you within 24 hours.</p>}
      />

      <section aria-label="Estimate request" className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-10 px-4 py-12 lg:grid-cols-[1.6fr_1fr]">
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
          <EstimateForm heading="Request Your Free Estimate" />
        </div>
        <aside aria-labelledby="estimate-benefits" className="space-y-6 break-words">
          <div className="rounded-xl bg-brand-50 p-6">
            <h2 id="estimate-benefits" className="text-xl font-bold text-brand-900">
              Why request an estimate from us?
            </h2>
            <ul className="mt-4 space-y-3">
              {benefits.map((benefit) => (
                <li key={benefit} className="flex gap-3 text-slate-800">
                  <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" aria-hidden="true" />
                  <span>{benefit}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-xl bg-red-50 p-6">
            <h2 className="text-xl font-bold text-red-900">No heat or no cooling right now?</h2>
            <p className="mt-2 text-slate-800">Our emergency line answers 24/7, nights, weekends and holidays included.</p>
            <a href={telHref(company.emergencyPhone)} className="mt-4 inline-flex items-center gap-2 text-2xl font-bold text-red-800 underline-offset-4 hover:underline">
              <PhoneIcon className="h-6 w-6" aria-hidden="true" />
              {company.emergencyPhone}
            </a>
          </div>
          <div className="rounded-xl border border-slate-200 p-6">
            <h2 className="text-lg font-bold text-slate-900">Office hours</h2>
            <ul className="mt-2 text-slate-700">
              {company.openingHours.map((span) => (
                <li key={span.firstDay}>{openingHoursLabel(span)}</li>
              ))}
              <li>Emergency service 24/7</li>
            </ul>
          </div>
        </aside>
      </section>

      <section aria-labelledby="what-to-expect" className="bg-slate-50 px-4 py-14">
        <div className="mx-auto max-w-6xl">
          <h2 id="what-to-expect" className="text-3xl font-bold text-slate-900">
            What to Expect
          </h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-4">
            {steps.map((step, index) => (
              <li key={step.title} className="rounded-xl bg-white p-6 shadow-sm">
                <span aria-hidden="true" className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-2 text-slate-700">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="estimate-cta" className="bg-brand-900 px-4 py-14 text-white">
        <div className="mx-auto max-w-6xl text-center">
          <h2 id="estimate-cta" className="text-3xl font-bold">
            Trusted by Low Country homeowners and businesses
          </h2>
          <dl className="mt-10 grid gap-8 sm:grid-cols-3">
            <div className="flex flex-col">
              <dt className="text-lg text-slate-200">Happy Customers</dt>
              <dd className="order-first text-5xl font-extrabold">{companyStats.happyCustomers}</dd>
            </div>
            <div className="flex flex-col">
              <dt className="text-lg text-slate-200">Years of Experience</dt>
              <dd className="order-first text-5xl font-extrabold">{companyStats.yearsInBusiness}</dd>
            </div>
            <div className="flex flex-col">
              <dt className="text-lg text-slate-200">Emergency Service</dt>
              <dd className="order-first text-5xl font-extrabold">{companyStats.emergencyService}</dd>
            </div>
          </dl>
          <p className="mt-10 text-lg">
            Prefer to talk? Call{' '}
            <a href={telHref(company.phone)} className="font-bold underline underline-offset-4">
              {company.phone}
            </a>
          </p>
        </div>
      </section>
    </>
  );
}
