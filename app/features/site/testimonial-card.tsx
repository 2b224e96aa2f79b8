import type { Testimonial } from '#shared/testimonials.ts';

const starPath = 'M10 1.6l2.6 5.3 5.8.8-4.2 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.6 7.7l5.8-.8z';

/** Five stars, partly filled for fractions, read out as 'Rated 4.8 out of 5'. */
export function StarRating({ rating, size = 'h-5 w-5' }: { rating: number; size?: string }) {
  const label = `Rated ${rating} out of 5`;
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex gap-0.5 align-middle">
      {[1, 2, 3, 4, 5].map((star) => {
        const fill = Math.min(1, Math.max(0, rating - (star - 1)));
        return (
          <span key={star} aria-hidden="true" className={`relative inline-block ${size}`}>
            <svg viewBox="0 0 20 20" focusable="false" className="absolute inset-0 h-full w-full text-slate-300" fill="currentColor">
              <path d={starPath} />
            </svg>
            {fill > 0 ? (
              <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
                <svg viewBox="0 0 20 20" focusable="false" className={`${size} text-amber-500`} fill="currentColor">
                  <path d={starPath} />
                </svg>
              </span>
            ) : null}
          </span>
        );
      })}
    </span>
  );
}

/** One customer's words: rating, quote, and who said it (first name, initial, town). */
export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <StarRating rating={testimonial.rating} />
      <blockquote className="mt-4 flex-1 leading-relaxed text-slate-700">
        <p>&ldquo;{testimonial.quote}&rdquo;</p>
      </blockquote>
      <figcaption className="mt-5 border-t border-slate-100 pt-4">
        <span className="block font-semibold text-brand-900">{testimonial.name}</span>
        <span className="block text-sm text-slate-600">
          {testimonial.town} · {testimonial.service}
        </span>
      </figcaption>
    </figure>
  );
}
