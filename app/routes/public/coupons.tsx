import { Link } from 'react-router';
import { ContentSection } from '#client/features/site/content-section.tsx';
import { CtaBand } from '#client/features/site/cta-band.tsx';
import { ClockIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { buttonClass, linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { telHref } from '#shared/company-profile.ts';
import { coupons } from '#shared/coupons.ts';

export const meta = () =>
  pageMeta({
    title: `HVAC Coupons & Special Offers in the Low Country | ${company.name}`,
    description: `Save on heating and air-conditioning service: ${coupons.map((coupon) => coupon.title.toLowerCase()).join('; ')}. Mention the code when you book.`,
    path: '/coupons',
  });

const steps = [
  { title: 'Pick an offer', text: 'Note the code on the coupon; there is nothing to print.' },
  { title: 'Book your visit', text: 'Request an estimate online or call us, and mention the code.' },
  { title: 'Save on the invoice', text: 'The technician applies the discount before you pay.' },
];

export default function CouponsPage() {
  return (
    <>
      <PageHero
        eyebrow="Save on service"
        title="Coupons & Special Offers"
        lead={
          <p>
            Fair prices every day, and a few ways to save a little more. Mention the code when you book and we will take care of
            the rest.
          </p>
        }
      />

      <section aria-labelledby="offers-title" className="px-4 pb-14 md:pb-20">
        <div className="mx-auto max-w-6xl">
          <h2 id="offers-title" className="sr-only">
            Current offers
          </h2>
          <ul className="grid gap-6 md:grid-cols-2">
            {coupons.map((coupon) => {
              const titleId = `coupon-${coupon.id}-title`;
              return (
                <li key={coupon.id}>
                  <article
                    aria-labelledby={titleId}
                    className="flex h-full flex-col rounded-2xl border-2 border-dashed border-accent-600 bg-white p-6 shadow-sm md:p-8"
                  >
                    <div className="flex flex-wrap items-start justify-between gap-4">
                      <p className="text-4xl font-extrabold tracking-tight text-accent-700">{coupon.value}</p>
                      <p className="rounded-lg bg-brand-50 px-3 py-1.5 text-sm text-brand-900">
                        Code <span className="font-mono font-bold tracking-wider">{coupon.code}</span>
                      </p>
                    </div>
                    <h3 id={titleId} className="mt-3 text-xl font-bold text-brand-900">
                      {coupon.title}
                    </h3>
                    <p className="mt-2 leading-relaxed text-slate-700">{coupon.description}</p>
                    <h4 className="mt-5 text-sm font-semibold uppercase tracking-wider text-slate-700">Terms</h4>
                    <ul className="mt-2 flex-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
                      {coupon.terms.map((term) => (
                        <li key={term}>{term}</li>
                      ))}
                    </ul>
                    <p className="mt-5 flex items-start gap-2 text-sm font-medium text-slate-800">
                      <ClockIcon className="mt-0.5 h-4 w-4 shrink-0 text-accent-700" />
                      <span>
                        <span className="font-semibold">Expires:</span> {coupon.expiry}
                      </span>
                    </p>
                    <p className="mt-6">
                      <Link to="/estimate" className={buttonClass.primary}>
                        Claim this offer<span className="sr-only">: {coupon.title}</span>
                      </Link>
                    </p>
                  </article>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <ContentSection id="redeem" tone="muted" eyebrow="How it works" title="How to use a coupon">
        <ol className="grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm">
              <span
                aria-hidden="true"
                className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-brand-800 text-lg font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-bold text-brand-900">{step.title}</h3>
              <p className="mt-1 text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-8 text-sm text-slate-600">
          Offers apply to residential service in our service area, one coupon per visit unless a coupon says otherwise. Questions
          about an offer? Call{' '}
          <a href={telHref(company.phone)} className={linkClass}>
            {company.phone}
          </a>
          .
        </p>
      </ContentSection>

      <CtaBand id="coupons-cta" title="Put your savings to work" actionLabel="Request a free estimate">
        <p>Book a repair, a second opinion or your first tune-up, and mention your code.</p>
      </CtaBand>
    </>
  );
}
