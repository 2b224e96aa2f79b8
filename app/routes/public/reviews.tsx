import { ContentSection } from '#client/features/site/content-section.tsx';
import { CtaBand } from '#client/features/site/cta-band.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { StarRating, TestimonialCard } from '#client/features/site/testimonial-card.tsx';
import { buttonClass, linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { estimateResponseHours } from '#shared/business.ts';
import { ratingSummary, testimonials } from '#shared/testimonials.ts';

// No Review or AggregateRating structured data here: reviews a business publishes about itself are
// not eligible for review rich results, so the page only carries the business's own structured data.
export const meta = () =>
  pageMeta({
    title: `Customer Reviews from Bluffton to Beaufort | ${company.name}`,
    description: `Read what Low Country homeowners in Bluffton, Hilton Head Island, Okatie, Beaufort and nearby towns say about ${company.name}'s heating and air-conditioning repair, installation and maintenance.`,
    path: '/reviews',
  });

const summary = ratingSummary();

export default function ReviewsPage() {
  return (
    <>
      <PageHero
        eyebrow="Reviews"
        title="Customer Reviews"
        lead={
          <p>
            Our business grows by word of mouth from neighbors across the Low Country. Here is what customers have told us about
            their repairs, new systems and maintenance visits.
          </p>
        }
      />

      <section aria-labelledby="rating-summary-title" className="px-4 pb-4">
        <div className="mx-auto grid max-w-6xl gap-8 rounded-3xl border border-slate-200 bg-white p-6 shadow-sm md:grid-cols-[auto_1fr] md:items-center md:gap-14 md:p-10">
          <div className="text-center md:text-left">
            <h2 id="rating-summary-title" className="text-lg font-semibold text-slate-700">
              Average rating
            </h2>
            <p className="mt-1 text-6xl font-extrabold tracking-tight text-brand-900">
              {summary.average.toFixed(1)}
              <span className="text-2xl font-semibold text-slate-600"> out of 5</span>
            </p>
            <p className="mt-2">
              <StarRating rating={summary.average} size="h-7 w-7" />
            </p>
            <p className="mt-2 text-slate-700">Based on {summary.count} customer reviews</p>
          </div>
          <table className="w-full max-w-xl border-separate border-spacing-y-2">
            <caption className="sr-only">Number of reviews by star rating</caption>
            <thead className="sr-only">
              <tr>
                <th scope="col">Rating</th>
                <th scope="col">Share of reviews</th>
                <th scope="col">Reviews</th>
              </tr>
            </thead>
            <tbody>
              {summary.byStars.map((row) => {
                const share = summary.count === 0 ? 0 : Math.round((row.count / summary.count) * 100);
                return (
                  <tr key={row.stars}>
                    <th scope="row" className="w-20 pr-3 text-left font-medium whitespace-nowrap text-slate-700">
                      {row.stars} {row.stars === 1 ? 'star' : 'stars'}
                    </th>
                    <td>
                      <span aria-hidden="true" className="block h-3 overflow-hidden rounded-full bg-slate-100">
                        <span className="block h-full rounded-full bg-amber-500" style={{ width: `${share}%` }} />
                      </span>
                      <span className="sr-only">{share}%</span>
                    </td>
                    <td className="w-10 pl-3 text-right text-slate-700">{row.count}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      <ContentSection id="all-reviews" title="What customers say" eyebrow="In their words">
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {testimonials.map((testimonial) => (
            <li key={testimonial.id}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection
        id="share-review"
        tone="muted"
        eyebrow="Had us out recently?"
        title="Tell us how we did"
        intro={
          <p>
            We read every comment, good or bad, and we use them to get better. If something was not right, we want to hear it
            first so we can make it right: call {company.phone} or write to{' '}
            <a href={`mailto:${company.email}`} className={`${linkClass} [overflow-wrap:anywhere]`}>
              {company.email}
            </a>
            .
          </p>
        }
      >
        {company.social.google ? (
          <a href={company.social.google} target="_blank" rel="noopener noreferrer" className={buttonClass.secondary}>
            Review us on Google
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          <a href={`mailto:${company.email}?subject=${encodeURIComponent('My review')}`} className={buttonClass.secondary}>
            E-mail us your review
          </a>
        )}
      </ContentSection>

      <CtaBand id="reviews-cta" title="Join our happy customers" actionLabel="Request a free estimate">
        <p>Repairs, new systems or a maintenance plan: tell us what you need and we will reply within {estimateResponseHours} hours.</p>
      </CtaBand>
    </>
  );
}
