import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ContentSection } from '#client/features/site/content-section.tsx';
import { CtaBand } from '#client/features/site/cta-band.tsx';
import {
  ArrowRightIcon,
  ClockIcon,
  MailIcon,
  PhoneIcon,
  PinIcon,
  ShieldIcon,
  TagIcon,
  UsersIcon,
  WrenchIcon,
} from '#client/features/site/icons.tsx';
import { ResponsiveImage } from '#client/features/site/responsive-image.tsx';
import { siteImages, type SiteImage } from '#client/features/site/site-images.ts';
import { StarRating, TestimonialCard } from '#client/features/site/testimonial-card.tsx';
import { buttonClass, linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { companyStats, estimateResponseHours } from '#shared/business.ts';
import { oneLineAddress, openingHoursLabel, telHref } from '#shared/company-profile.ts';
import { maintenancePlans } from '#shared/maintenance-plans.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import { pickTestimonials, ratingSummary } from '#shared/testimonials.ts';

export const meta = () =>
  pageMeta({
    title: `Heating & Cooling Services in Bluffton & Hilton Head | ${company.name}`,
    description: `AC and heating installation, repair and maintenance across the Low Country, from Bluffton to Hilton Head Island. Free estimates, flat-rate pricing and a 24/7 emergency line: ${company.emergencyPhone}.`,
    path: '/',
  });

const lowestPlanPrice = Math.min(...maintenancePlans.map((plan) => plan.yearlyPrice));

const services: { to: string; title: string; text: string; linkLabel: string; image: SiteImage; imageAlt: string }[] = [
  {
    to: '/AC',
    title: 'Cooling',
    text: 'Same-day AC repair, honest replacement quotes, ductless mini-splits and high-efficiency heat pumps sized for our heat and humidity.',
    linkLabel: 'Explore cooling services',
    image: siteImages.condenser,
    imageAlt: 'Outdoor air-conditioning condenser on its pad beside a house',
  },
  {
    to: '/Heating',
    title: 'Heating',
    text: 'Heat pump, gas and propane furnace and dual-fuel repair and installation, with emergency no-heat service when a cold snap hits.',
    linkLabel: 'Explore heating services',
    image: siteImages.heating,
    imageAlt: 'Gas furnace with its ductwork and an outdoor heat pump',
  },
  {
    to: '/MaintenancePlan',
    title: 'Maintenance Plans',
    text: `Yearly tune-ups, repair discounts and faster response, from $${lowestPlanPrice} a year. Three plans to fit your home and budget.`,
    linkLabel: 'Compare maintenance plans',
    image: siteImages.thermostat,
    imageAlt: 'Smart thermostat beside a maintenance checklist',
  },
];

const reasons: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <TagIcon className="h-6 w-6" />,
    title: 'Flat-rate pricing',
    text: 'You see and approve the price before any work starts. No hourly meter running in your attic.',
  },
  {
    icon: <ClockIcon className="h-6 w-6" />,
    title: 'On time, around the clock',
    text: 'A real arrival window, a call when we are on the way, and a 24/7 emergency line for nights and weekends.',
  },
  {
    icon: <WrenchIcon className="h-6 w-6" />,
    title: 'Repair first, replace when it pays',
    text: 'We fix what can be fixed and show you the numbers when replacement would save you more.',
  },
  {
    icon: <ShieldIcon className="h-6 w-6" />,
    title: 'Work we stand behind',
    text: 'Written warranties on repairs and installations, and manufacturer warranties registered for you.',
  },
];

const featuredTestimonials = pickTestimonials(['karen-m', 'linda-t', 'marcus-j']);
const rating = ratingSummary();

export default function Home() {
  const hours = company.openingHours.map(openingHoursLabel).join(' · ');
  return (
    <>
      <section aria-labelledby="home-hero-title" className="relative isolate overflow-hidden bg-brand-900 text-white">
        <ResponsiveImage
          image={siteImages.hero}
          alt=""
          sizes="100vw"
          priority
          className="absolute inset-0 -z-20 h-full w-full object-cover object-[72%_center]"
        />
        {/* Keeps the white text readable over any part of the picture. */}
        <div aria-hidden="true" className="absolute inset-0 -z-10 bg-brand-900/70 md:hidden" />
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 hidden bg-gradient-to-r from-brand-900/95 via-brand-900/70 to-brand-900/0 md:block"
        />
        <div className="mx-auto max-w-6xl px-4 pt-20 pb-24 md:pt-32 md:pb-36">
          <p className="text-sm font-semibold uppercase tracking-widest text-orange-200">Bluffton · Hilton Head Island · The Low Country</p>
          <h1 id="home-hero-title" className="mt-4 max-w-2xl text-4xl font-extrabold tracking-tight sm:text-5xl md:text-6xl">
            Heating &amp; Cooling Services
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-100 md:text-xl">
            Installation, repair and maintenance for homes and businesses across the Low Country, with flat-rate pricing and a
            technician who shows up when we say.
          </p>
          <div className="mt-9 flex flex-wrap gap-4">
            <Link to="/estimate" className={`${buttonClass.primary} w-full px-7 py-3.5 text-lg sm:w-auto`}>
              FREE Estimate
            </Link>
            <Link to="/MaintenancePlan" className={`${buttonClass.inverse} w-full px-7 py-3.5 text-lg sm:w-auto`}>
              {company.name} About
            </Link>
          </div>
          <ul className="mt-10 flex flex-col gap-3 text-slate-100 sm:flex-row sm:flex-wrap sm:gap-x-8">
            <li className="flex items-center gap-2">
              <PhoneIcon className="h-5 w-5 text-orange-300" />
              <span>
                24/7 emergency:{' '}
                <a href={telHref(company.emergencyPhone)} className="font-semibold text-white underline underline-offset-4">
                  {company.emergencyPhone}
                </a>
              </span>
            </li>
            <li className="flex items-center gap-2">
              <ClockIcon className="h-5 w-5 text-orange-300" />
              <span>Estimates within {estimateResponseHours} hours</span>
            </li>
          </ul>
        </div>
      </section>

      <section aria-labelledby="welcome-title" className="px-4 py-16 md:py-20">
        <div className="mx-auto grid max-w-6xl items-center gap-10 md:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-widest text-accent-700">HEATING AND COOLING SERVICE IN THE LOW COUNTRY</p>
            <h2 id="welcome-title" className="mt-2 text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">
              Welcome to {company.name}
            </h2>
            <div className="mt-5 space-y-4 text-lg leading-relaxed text-slate-700">
              <p>
                Summers here are long, hot and humid, the salt air is hard on outdoor units, and every few winters a hard freeze
                tests the heat. We keep Low Country homes and businesses comfortable through all of it.
              </p>
              <p>
                Our technicians install, repair and maintain every common system: central air, heat pumps, ductless mini-splits,
                gas and propane furnaces, and the ductwork and thermostats that tie them together.
              </p>
            </div>
            <dl className="mt-8 grid grid-cols-3 gap-4 border-t border-slate-200 pt-6">
              <div className="flex flex-col">
                <dt className="text-sm text-slate-600">Happy customers</dt>
                <dd className="order-first text-3xl font-extrabold text-brand-800">{companyStats.happyCustomers}</dd>
              </div>
              <div className="flex flex-col">
                <dt className="text-sm text-slate-600">Years in the Low Country</dt>
                <dd className="order-first text-3xl font-extrabold text-brand-800">{companyStats.yearsInBusiness}</dd>
              </div>
              <div className="flex flex-col">
                <dt className="text-sm text-slate-600">Emergency service</dt>
                <dd className="order-first text-3xl font-extrabold text-brand-800">{companyStats.emergencyService}</dd>
              </div>
            </dl>
          </div>
          <ResponsiveImage
            image={siteImages.van}
            alt="A service van with a ladder on its roof, parked under palmetto trees"
            sizes="(min-width: 1152px) 552px, (min-width: 768px) 48vw, 92vw"
            className="mx-auto h-auto w-full max-w-md md:max-w-none"
          />
        </div>
      </section>

      <section aria-labelledby="reach-out-title" className="bg-brand-50 px-4 py-16 md:py-20">
        <div className="mx-auto max-w-6xl">
          <div className="max-w-3xl">
            <h2 id="reach-out-title" className="text-3xl font-bold tracking-tight text-brand-900 md:text-4xl">
              Reach Out to a Trusted Home Expert in Bluffton
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-700">
              Talk to a real person about a repair, a new system or a second opinion. Ask for a free estimate online and we will
              get back to you within {estimateResponseHours} hours; if your heat or air is out right now, call the emergency line
              any time, day or night.
            </p>
          </div>
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            <ContactCard icon={<PhoneIcon className="h-6 w-6" />} title="Call the office">
              <a href={telHref(company.phone)} className={linkClass}>
                {company.phone}
              </a>
            </ContactCard>
            <ContactCard icon={<ClockIcon className="h-6 w-6" />} title="24/7 emergency line">
              <a href={telHref(company.emergencyPhone)} className={linkClass}>
                {company.emergencyPhone}
              </a>
            </ContactCard>
            <ContactCard icon={<MailIcon className="h-6 w-6" />} title="E-mail us">
              <a href={`mailto:${company.email}`} className={`${linkClass} [overflow-wrap:anywhere]`}>
                {company.email}
              </a>
            </ContactCard>
            <ContactCard icon={<PinIcon className="h-6 w-6" />} title="Office hours">
              <span className="block">{hours}</span>
              <span className="mt-1 block text-sm text-slate-600">{oneLineAddress(company.address)}</span>
            </ContactCard>
          </ul>
          <p className="mt-10">
            <Link to="/estimate" className={buttonClass.primary}>
              Request your free estimate
              <ArrowRightIcon className="h-5 w-5" />
            </Link>
          </p>
        </div>
      </section>

      <ContentSection
        id="services"
        eyebrow="What we do"
        title="Cooling, heating and year-round care"
        intro={<p>One team for the whole system, inside and out, from the thermostat on the wall to the condenser by the patio.</p>}
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {services.map((service) => (
            <li key={service.to} className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
              <div className="bg-slate-50 px-6 pt-6">
                <ResponsiveImage
                  image={service.image}
                  alt={service.imageAlt}
                  sizes="(min-width: 1152px) 320px, (min-width: 768px) 28vw, 88vw"
                  className="mx-auto h-auto w-full max-w-xs"
                />
              </div>
              <div className="flex flex-1 flex-col p-6">
                <h3 className="text-xl font-bold text-brand-900">{service.title}</h3>
                <p className="mt-2 flex-1 text-slate-700">{service.text}</p>
                <Link to={service.to} className={`${linkClass} mt-5 inline-flex items-center gap-1`}>
                  {service.linkLabel}
                  <ArrowRightIcon className="h-4 w-4" />
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection id="why-us" tone="muted" eyebrow="Why homeowners call us" title="Straight answers, fair prices, work that lasts">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {reasons.map((reason) => (
            <li key={reason.title} className="rounded-2xl bg-white p-6 shadow-sm">
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                {reason.icon}
              </span>
              <h3 className="mt-4 text-lg font-bold text-brand-900">{reason.title}</h3>
              <p className="mt-2 text-slate-700">{reason.text}</p>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection
        id="testimonials"
        eyebrow="Reviews"
        title="What your neighbors say"
        intro={
          <p className="flex flex-wrap items-center gap-3">
            <StarRating rating={rating.average} />
            <span>
              {rating.average.toFixed(1)} out of 5 from {rating.count} customer reviews
            </span>
          </p>
        }
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {featuredTestimonials.map((testimonial) => (
            <li key={testimonial.id}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to="/reviews" className={`${linkClass} inline-flex items-center gap-1`}>
            Read all customer reviews
            <ArrowRightIcon className="h-4 w-4" />
          </Link>
        </p>
      </ContentSection>

      <ContentSection
        id="areas"
        tone="tint"
        eyebrow="Service areas"
        title="Serving the whole Low Country"
        intro={<p>From Old Town Bluffton to the beaches of Hilton Head and the historic streets of Beaufort, our trucks are nearby.</p>}
      >
        <ul className="flex flex-wrap gap-3">
          {serviceAreas.map((area) => (
            <li key={area.slug}>
              <Link
                to={`/service-areas#${area.slug}`}
                className="inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-4 py-2 font-medium text-brand-800 shadow-sm hover:border-brand-600 hover:bg-brand-50"
              >
                <PinIcon className="h-4 w-4 text-accent-700" />
                {area.name}
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to="/service-areas" className={`${linkClass} inline-flex items-center gap-1`}>
            See every town and ZIP code we serve
            <ArrowRightIcon className="h-4 w-4" />
          </Link>
        </p>
      </ContentSection>

      <CtaBand id="home-cta" title="Comfort you can count on, all year" actionLabel="Get your free estimate">
        <p>
          Tell us what is going on and we will reply within {estimateResponseHours} hours, or call now and talk to the office.
          <span className="mt-2 flex items-center gap-2 text-slate-200">
            <UsersIcon className="h-5 w-5 text-orange-300" />
            Trusted by {companyStats.happyCustomers} Low Country households.
          </span>
        </p>
      </CtaBand>
    </>
  );
}

function ContactCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4 rounded-2xl bg-white p-5 shadow-sm sm:block sm:p-6">
      <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-accent-700 text-white">{icon}</span>
      <div className="min-w-0">
        <h3 className="font-bold text-brand-900 sm:mt-4">{title}</h3>
        <div className="mt-1 text-slate-700">{children}</div>
      </div>
    </li>
  );
}
