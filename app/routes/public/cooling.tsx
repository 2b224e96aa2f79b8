import { Link } from 'react-router';
import { ContentSection } from '#client/features/site/content-section.tsx';
import { CheckIcon, ClockIcon, PhoneIcon, ShieldIcon, SnowflakeIcon, TagIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { siteImages } from '#client/features/site/site-images.ts';
import { buttonClass, linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { serviceCallFeeFrom } from '#shared/business.ts';
import { telHref } from '#shared/company-profile.ts';

export const meta = () =>
  pageMeta({
    title: `AC Repair, Installation & Service in Bluffton, SC | ${company.name}`,
    description: `24/7 air-conditioning repair with flat-rate prices and written warranties; central AC, split systems, ductless mini-splits and heat pumps installed across Bluffton, Hilton Head and the Low Country.`,
    path: '/AC',
  });

const repairServices = [
  'Refrigerant leak search, repair and recharge',
  'Capacitor, contactor and hard-start kit replacement',
  'Compressor and condenser fan motor diagnosis',
  'Frozen evaporator coils and weak airflow',
  'Clogged condensate drains and float switches',
  'Blower motors and control boards',
  'Thermostat troubleshooting and replacement',
  'Tripping breakers and electrical faults',
  'Leaking, crushed or disconnected ductwork',
  'Noisy, rattling or short-cycling systems',
];

const repairTypes = [
  {
    title: 'Central AC',
    text: 'Whole-house systems that send cooled air through ductwork, whether the air handler sits in the attic, a closet or the crawl space. This is what most Low Country homes have.',
  },
  {
    title: 'Split AC',
    text: 'Systems split between an outdoor condenser and an indoor unit, including single-zone wall splits that cool additions, bonus rooms, garages and workshops.',
  },
  {
    title: 'Window Units',
    text: 'Window and through-the-wall units in cottages, rentals and outbuildings. We repair them and tell you honestly when a small ductless unit would be quieter and cheaper to run.',
  },
];

const benefits = [
  { title: 'Lower power bills', text: 'Clean coils, the right refrigerant charge and sealed ducts can cut cooling costs noticeably.' },
  { title: 'Real humidity control', text: 'Correct airflow settings pull moisture out of the air, so 75 degrees feels cool, not clammy.' },
  { title: 'Fewer breakdowns', text: 'Worn capacitors and clogged drains are caught at a tune-up, not at midnight in July.' },
  { title: 'Longer equipment life', text: 'A well-maintained system in salt air lasts years longer than a neglected one.' },
  { title: 'Cleaner indoor air', text: 'Better filtration and dry ducts mean less dust, pollen and musty smell.' },
  { title: 'Warranty protection', text: 'Manufacturers expect yearly maintenance; we keep the records that prove it.' },
];

const installTypes = [
  {
    title: 'Central',
    text: 'High-efficiency split systems with variable-speed air handlers, matched to your home with a room-by-room load calculation so they cool evenly and dehumidify well.',
  },
  {
    title: 'Ductless Mini-Split',
    text: 'One outdoor unit feeding up to several quiet indoor heads. Ideal for historic homes without ductwork, sunrooms, bonus rooms and additions, with each room set to its own temperature.',
  },
  {
    title: 'Heat Pumps',
    text: 'They cool in summer and heat in winter with one system, which suits our mild winters. Today\u2019s inverter models keep heating efficiently well below freezing.',
  },
];

export default function CoolingPage() {
  return (
    <>
      <PageHero
        eyebrow="Cooling"
        title="AC Solutions"
        lead={
          <p>
            When it is 95 degrees with 80% humidity, air conditioning is not a luxury. We repair, replace and maintain every
            kind of cooling system in Low Country homes and businesses, day or night.
          </p>
        }
        actions={
          <>
            <Link to="/BookingPage" className={buttonClass.primary}>
              Book an AC repair
            </Link>
            <a href={telHref(company.emergencyPhone)} className={buttonClass.secondary}>
              <PhoneIcon className="h-5 w-5" />
              <span>
                <span className="sr-only">Call the 24/7 emergency line, </span>
                {company.emergencyPhone}
              </span>
            </a>
          </>
        }
        image={siteImages.condenser}
        imageAlt="An outdoor air-conditioning condenser on its pad beside a house, with cool air rising from the fan"
      />

      <div className="px-4 py-14 md:py-20">
        <div className="mx-auto grid max-w-6xl gap-8 md:grid-cols-2">
          <section aria-labelledby="ac-repair-247-title" className="rounded-2xl bg-brand-900 p-8 text-white shadow-lg md:p-10">
            <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-accent-700">
              <ClockIcon className="h-6 w-6" />
            </span>
            <h2 id="ac-repair-247-title" className="mt-5 text-3xl font-bold tracking-tight">
              24/7 AC Repair
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-200">
              Air conditioners rarely fail at a convenient time. Our emergency line answers around the clock, every day of the
              year, and an on-call technician can be on the way the same night.
            </p>
            <p className="mt-6">
              <a
                href={telHref(company.emergencyPhone)}
                className="inline-flex items-center gap-2 text-2xl font-bold text-white underline decoration-accent-500 decoration-2 underline-offset-4"
              >
                <PhoneIcon className="h-6 w-6" />
                <span>
                  <span className="sr-only">Call </span>
                  {company.emergencyPhone}
                </span>
              </a>
            </p>
            <p className="mt-4 text-sm text-slate-300">
              Before you call: check that the thermostat is set to Cool, the breaker has not tripped and the filter is not
              clogged. If the indoor coil is iced over, switch the system off and the fan on while you wait.
            </p>
          </section>
          <section aria-labelledby="flat-rates-title" className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm md:p-10">
            <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
              <TagIcon className="h-6 w-6" />
            </span>
            <h2 id="flat-rates-title" className="mt-5 text-3xl font-bold tracking-tight text-brand-900">
              Flat Rates and Warranties
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-700">
              You know the price before we pick up a tool. After the diagnosis, the technician gives you a flat-rate price for
              the repair, the same whether it takes one hour or three.
            </p>
            <ul className="mt-6 space-y-3">
              <li className="flex gap-3">
                <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                <span className="text-slate-800">Service calls from ${serviceCallFeeFrom}; no surprise overtime on the bill</span>
              </li>
              <li className="flex gap-3">
                <ShieldIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                <span className="text-slate-800">1-year parts and labor warranty on every repair we make</span>
              </li>
              <li className="flex gap-3">
                <ShieldIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                <span className="text-slate-800">
                  New systems: 2-year warranty on our installation labor, plus the manufacturer&rsquo;s parts warranty, which we
                  register for you
                </span>
              </li>
            </ul>
          </section>
        </div>
      </div>

      <ContentSection
        id="ac-repair-services"
        tone="muted"
        eyebrow="What we fix"
        title="AC Repair Services"
        intro={<p>Our trucks carry the parts behind most summer breakdowns, so the majority of repairs are finished on the first visit.</p>}
      >
        <ul className="grid gap-x-8 gap-y-4 sm:grid-cols-2">
          {repairServices.map((item) => (
            <li key={item} className="flex items-start gap-3 rounded-xl bg-white p-4 shadow-sm">
              <SnowflakeIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
              <span className="text-slate-800">{item}</span>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection
        id="ac-types"
        eyebrow="Every make and model"
        title="Types of Air Conditioners We Repair"
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {repairTypes.map((type) => (
            <li key={type.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-xl font-bold text-brand-900">{type.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-700">{type.text}</p>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection
        id="ac-services"
        tone="tint"
        eyebrow="Installation, replacement and tune-ups"
        title="Air Conditioning Services"
        intro={
          <p>
            When repair no longer makes sense, we help you choose a system that fits your home, your budget and our climate,
            then install it cleanly and keep it running with seasonal maintenance.
          </p>
        }
      >
        <div className="grid gap-10 lg:grid-cols-2">
          <div>
            <h3 className="text-2xl font-bold text-brand-900">Benefits of professional AC service</h3>
            <ul className="mt-6 space-y-4">
              {benefits.map((benefit) => (
                <li key={benefit.title} className="flex gap-3">
                  <CheckIcon className="mt-1 h-5 w-5 shrink-0 text-green-700" />
                  <p className="text-slate-700">
                    <strong className="font-semibold text-brand-900">{benefit.title}.</strong> {benefit.text}
                  </p>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="text-2xl font-bold text-brand-900">Systems we install</h3>
            <ul className="mt-6 space-y-4">
              {installTypes.map((type) => (
                <li key={type.title} className="rounded-2xl bg-white p-6 shadow-sm">
                  <h4 className="text-lg font-bold text-brand-900">{type.title}</h4>
                  <p className="mt-1 leading-relaxed text-slate-700">{type.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </div>
        <div className="mt-12 flex flex-col items-start gap-4 sm:flex-row sm:items-center">
          <Link to="/estimate" className={`${buttonClass.primary} px-8 py-3.5 text-lg`}>
            Get Free Estimate
          </Link>
          <p className="text-slate-700">
            Free estimates on new systems and major repairs. Want to keep it running?{' '}
            <Link to="/MaintenancePlan" className={linkClass}>
              See our maintenance plans
            </Link>
            .
          </p>
        </div>
      </ContentSection>
    </>
  );
}
