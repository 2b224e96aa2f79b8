import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ContentSection } from '#client/features/site/content-section.tsx';
import {
  AirIcon,
  ArrowRightIcon,
  ClockIcon,
  LeafIcon,
  ShieldIcon,
  UsersIcon,
  WrenchIcon,
} from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { siteImages } from '#client/features/site/site-images.ts';
import { TestimonialCard } from '#client/features/site/testimonial-card.tsx';
import { buttonClass, linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { companyStats } from '#shared/business.ts';
import { telHref } from '#shared/company-profile.ts';
import { pickTestimonials } from '#shared/testimonials.ts';

export const meta = () =>
  pageMeta({
    title: `About Us: Your Low Country Heating & Air Team | ${company.name}`,
    description: `Meet ${company.name}: ${companyStats.yearsInBusiness} years of heating and cooling installation, repair, indoor air quality and energy-efficiency work for homes and businesses from Bluffton to Beaufort.`,
    path: '/AboutUs',
  });

const services: { icon: ReactNode; title: string; text: string; to: string; linkLabel: string }[] = [
  {
    icon: <WrenchIcon className="h-6 w-6" />,
    title: 'Installation & Upgrades',
    text: 'Central air, heat pumps, ductless mini-splits and furnaces, sized with a real load calculation rather than a rule of thumb, and installed to the manufacturer\u2019s specifications so the warranty holds.',
    to: '/AC',
    linkLabel: 'Cooling installation',
  },
  {
    icon: <ClockIcon className="h-6 w-6" />,
    title: 'Repair & Maintenance',
    text: 'Fast diagnosis of every make and model, flat-rate repairs you approve first, and seasonal tune-ups that catch worn parts before they leave you without air in August.',
    to: '/MaintenancePlan',
    linkLabel: 'Maintenance plans',
  },
  {
    icon: <AirIcon className="h-6 w-6" />,
    title: 'Indoor Air Quality',
    text: 'Whole-home dehumidifiers, media filters, UV lights and fresh-air ventilation for allergy sufferers and for the muggy coastal air that invites mold and musty smells.',
    to: '/AC',
    linkLabel: 'Comfort and humidity',
  },
  {
    icon: <LeafIcon className="h-6 w-6" />,
    title: 'Energy Efficiency',
    text: 'High-SEER2 heat pumps, variable-speed equipment, smart thermostats and duct sealing that trim the power bill, with help finding the utility rebates and federal tax credits you qualify for.',
    to: '/Heating',
    linkLabel: 'Efficient heating',
  },
];

const reasons: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <WrenchIcon className="h-6 w-6" />,
    title: 'Expertise',
    text: 'Our technicians train every year on new equipment and refrigerants, and they know Low Country homes: tight attics, crawl spaces, salt air and raised flood-zone pads.',
  },
  {
    icon: <UsersIcon className="h-6 w-6" />,
    title: 'Customer-Centric Approach',
    text: 'We explain what we find in plain English, show you photos, and give you options with prices before any work begins. You decide; we never push.',
  },
  {
    icon: <ClockIcon className="h-6 w-6" />,
    title: 'Reliability & Timeliness',
    text: 'You get a real arrival window and a call when the technician is on the way. Trucks carry the common parts, so most repairs are finished on the first visit.',
  },
  {
    icon: <ShieldIcon className="h-6 w-6" />,
    title: 'Quality Assurance',
    text: 'Every installation is checked against a written commissioning list, repairs carry a written warranty, and we register manufacturer warranties for you.',
  },
];

const clientTestimonials = pickTestimonials(['david-r', 'sarah-w', 'james-k']);

export default function AboutPage() {
  return (
    <>
      <PageHero
        eyebrow="About the company"
        title={`About ${company.name}`}
        lead={
          <p>
            For {companyStats.yearsInBusiness} years we have kept homes and businesses cool through Low Country summers and warm
            through the odd hard freeze, from Old Town Bluffton to Hilton Head Island and Beaufort.
          </p>
        }
        actions={
          <>
            <Link to="/estimate" className={buttonClass.primary}>
              Request a free estimate
            </Link>
            <a href={telHref(company.phone)} className={buttonClass.secondary}>
              <span className="sr-only">Call </span>
              {company.phone}
            </a>
          </>
        }
        image={siteImages.van}
        imageAlt="One of our service vans, with a ladder on its roof, parked under palmetto trees"
      />

      <ContentSection
        id="mission"
        eyebrow="Why we do this"
        title="Our Mission"
        intro={
          <>
            <p>
              Our mission is simple: make every home we visit more comfortable, more efficient and healthier to live in, and
              treat every customer the way we would want our own families treated.
            </p>
            <p>
              That means honest advice, fair flat-rate prices, clean work and technicians who show up when we say. It also means
              fixing what can be fixed: we would rather earn your trust with a good repair than sell you a system you do not need
              yet.
            </p>
          </>
        }
      >
        <dl className="grid gap-6 sm:grid-cols-3">
          {[
            { value: companyStats.happyCustomers, label: 'Happy customers across the Low Country' },
            { value: companyStats.yearsInBusiness, label: 'Years of heating and cooling experience' },
            { value: companyStats.emergencyService, label: 'Emergency service, nights and weekends' },
          ].map((stat) => (
            <div key={stat.label} className="flex flex-col rounded-2xl bg-brand-50 p-6">
              <dt className="text-slate-700">{stat.label}</dt>
              <dd className="order-first text-4xl font-extrabold text-brand-800">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </ContentSection>

      <ContentSection
        id="our-services"
        tone="muted"
        eyebrow="What we do"
        title="Our Services"
        intro={<p>Everything your heating and cooling system needs, from the first estimate to the twentieth tune-up.</p>}
      >
        <ul className="grid gap-6 sm:grid-cols-2">
          {services.map((service) => (
            <li key={service.title} className="flex flex-col rounded-2xl bg-white p-6 shadow-sm md:p-8">
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-accent-700 text-white">{service.icon}</span>
              <h3 className="mt-4 text-xl font-bold text-brand-900">{service.title}</h3>
              <p className="mt-2 flex-1 leading-relaxed text-slate-700">{service.text}</p>
              <Link to={service.to} className={`${linkClass} mt-4 inline-flex items-center gap-1`}>
                {service.linkLabel}
                <ArrowRightIcon className="h-4 w-4" />
              </Link>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection id="why-choose-us" eyebrow="Our promise" title="Why Choose Us">
        <ul className="grid gap-x-10 gap-y-8 md:grid-cols-2">
          {reasons.map((reason) => (
            <li key={reason.title} className="flex gap-4">
              <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                {reason.icon}
              </span>
              <div>
                <h3 className="text-xl font-bold text-brand-900">{reason.title}</h3>
                <p className="mt-2 leading-relaxed text-slate-700">{reason.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection id="client-testimonials" tone="tint" eyebrow="Reviews" title="What Our Clients Say">
        <ul className="grid gap-6 md:grid-cols-3">
          {clientTestimonials.map((testimonial) => (
            <li key={testimonial.id}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to="/reviews" className={`${linkClass} inline-flex items-center gap-1`}>
            Read more customer reviews
            <ArrowRightIcon className="h-4 w-4" />
          </Link>
        </p>
      </ContentSection>

      <section aria-labelledby="about-contact-title" className="px-4 py-16 md:py-20">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id="about-contact-title" className="text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">
            Let&rsquo;s make your home comfortable
          </h2>
          <p className="mt-4 text-lg text-slate-700">
            Tell us about your home and what is bothering you. We will get back to you with honest advice and a free estimate.
          </p>
          <p className="mt-8">
            <Link to="/estimate" className={`${buttonClass.primary} px-8 py-3.5 text-lg`}>
              Contact Us
            </Link>
          </p>
        </div>
      </section>
    </>
  );
}
