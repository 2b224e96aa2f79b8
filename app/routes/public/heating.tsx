import { Link } from 'react-router';
import { ContentSection } from '#client/features/site/content-section.tsx';
import { CtaBand } from '#client/features/site/cta-band.tsx';
import { CheckIcon, FlameIcon, PhoneIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { PlanCards } from '#client/features/site/plan-cards.tsx';
import { PlanComparisonTable } from '#client/features/site/plan-comparison-table.tsx';
import { siteImages } from '#client/features/site/site-images.ts';
import { buttonClass, linkClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { telHref } from '#shared/company-profile.ts';

export const meta = () =>
  pageMeta({
    title: `Heating Repair: Heat Pumps & Furnaces in Bluffton, SC | ${company.name}`,
    description:
      'Heat pump, gas and propane furnace and dual-fuel heating repair and installation in the Low Country, emergency no-heat service during hard freezes, and three yearly maintenance plans compared.',
    path: '/Heating',
  });

const systems = [
  {
    title: 'Heat pumps',
    badge: 'Most common in the Low Country',
    text: 'Most homes here heat with a heat pump: the same outdoor unit that cools in summer runs in reverse to move heat indoors. With our mild winters it is the cheapest way to stay warm.',
    points: [
      'Defrost controls, reversing valves and backup heat strips',
      'Inverter and cold-climate models that heat efficiently below freezing',
      'Thermostat setup so backup heat only runs when it is needed',
    ],
  },
  {
    title: 'Gas and propane furnaces',
    badge: null,
    text: 'Natural gas and propane furnaces still warm many older homes and rural properties. We repair every make, and we check safety every time we open one up.',
    points: [
      'Igniters, flame sensors, gas valves and inducer motors',
      'Heat exchanger inspection and carbon-monoxide testing',
      'Propane conversions and high-efficiency replacements',
    ],
  },
  {
    title: 'Dual-fuel systems',
    badge: null,
    text: 'A heat pump paired with a gas or propane furnace: the heat pump does the work most of the winter, and the furnace takes over on the few truly cold nights.',
    points: [
      'Switch-over temperature set for your fuel and power prices',
      'A good upgrade when an old furnace or AC is due',
      'Comfortable, even heat during a hard freeze',
    ],
  },
];

const repairs = [
  'No heat, or only cool air from the vents',
  'Heat pump iced over or stuck in defrost',
  'Backup or emergency heat strips that will not come on',
  'Furnace that will not light or keeps shutting off',
  'Strange smells, banging or squealing at start-up',
  'Thermostat, wiring and control board faults',
  'High winter power bills from backup heat running constantly',
  'Carbon-monoxide and gas-leak safety checks',
];

export default function HeatingPage() {
  return (
    <>
      <PageHero
        eyebrow="Heating"
        title="Heating Services"
        lead={
          <p>
            Low Country winters are short and mild, until a cold front drops the thermometer into the twenties. We install,
            repair and maintain heat pumps, gas and propane furnaces and dual-fuel systems so your home stays warm when it
            counts.
          </p>
        }
        actions={
          <>
            <Link to="/BookingPage" className={buttonClass.primary}>
              Book a heating repair
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
        image={siteImages.heating}
        imageAlt="A gas furnace with its ductwork and an outdoor heat pump, with warm air rising"
      />

      <ContentSection
        id="heating-systems"
        eyebrow="What we work on"
        title="Heating systems we install and repair"
        intro={<p>Whatever keeps your home warm, we know how it should work and how to make it last.</p>}
      >
        <ul className="grid gap-6 lg:grid-cols-3">
          {systems.map((system) => (
            <li key={system.title} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
              {system.badge ? (
                <p className="mb-3 self-start rounded-full bg-brand-100 px-3 py-1 text-xs font-bold uppercase tracking-wider text-brand-800">
                  {system.badge}
                </p>
              ) : null}
              <h3 className="text-xl font-bold text-brand-900">{system.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-700">{system.text}</p>
              <ul className="mt-5 space-y-2">
                {system.points.map((point) => (
                  <li key={point} className="flex gap-2">
                    <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                    <span className="text-slate-800">{point}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </ContentSection>

      <section aria-labelledby="no-heat-title" className="px-4 pb-14 md:pb-20">
        <div className="mx-auto grid max-w-6xl gap-8 rounded-3xl bg-brand-900 p-8 text-white shadow-xl md:grid-cols-[1.2fr_1fr] md:p-12">
          <div>
            <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-accent-700">
              <FlameIcon className="h-6 w-6" />
            </span>
            <h2 id="no-heat-title" className="mt-5 text-3xl font-bold tracking-tight">
              Emergency no-heat service
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-200">
              Hard freezes are rare here, which is exactly why they catch systems out: a heat pump that has not run backup heat
              all year, a furnace that has not lit since last January. When the temperature drops and your heat stops, call the
              emergency line any hour of the day or night.
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
          </div>
          <div className="rounded-2xl bg-white/10 p-6">
            <h3 className="text-lg font-bold">While you wait for us</h3>
            <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-200">
              <li>Check the thermostat is set to Heat and its batteries are good.</li>
              <li>Look for a tripped breaker on the outdoor unit and the air handler or furnace.</li>
              <li>A heat pump with an &ldquo;Emergency heat&rdquo; setting can run on it until we arrive.</li>
              <li>Open cabinet doors under sinks on outside walls so pipes do not freeze.</li>
              <li>If you smell gas, leave the house first, then call the gas company and 911.</li>
            </ul>
          </div>
        </div>
      </section>

      <ContentSection
        id="heating-repairs"
        tone="muted"
        eyebrow="Heating repair"
        title="Problems we fix every winter"
        intro={<p>Every repair comes with a flat-rate price you approve before we start and our 1-year parts and labor warranty.</p>}
      >
        <ul className="grid gap-4 sm:grid-cols-2">
          {repairs.map((item) => (
            <li key={item} className="flex items-start gap-3 rounded-xl bg-white p-4 shadow-sm">
              <FlameIcon className="mt-0.5 h-5 w-5 shrink-0 text-accent-700" />
              <span className="text-slate-800">{item}</span>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection
        id="heating-plans"
        eyebrow="Maintenance plans"
        title="Keep your heat ready with a maintenance plan"
        intro={
          <p>
            A fall tune-up is the best protection against a no-heat call on the coldest night of the year. Every plan includes
            yearly visits and a repair discount; the higher plans add faster response and emergency service.{' '}
            <Link to="/MaintenancePlan" className={linkClass}>
              More about our maintenance plans
            </Link>
            .
          </p>
        }
      >
        <PlanCards idPrefix="heating-plan" />
        <div className="mt-14">
          <PlanComparisonTable idPrefix="heating-compare" />
        </div>
      </ContentSection>

      <CtaBand id="heating-cta" title="Warm again, without the guesswork" actionLabel="Get a free heating estimate">
        <p>Thinking about a new heat pump or a dual-fuel upgrade? We will size it properly and give you a written, flat-rate quote.</p>
      </CtaBand>
    </>
  );
}
