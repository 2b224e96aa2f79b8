import { ContentSection } from '#client/features/site/content-section.tsx';
import { CtaBand } from '#client/features/site/cta-band.tsx';
import { AirIcon, CheckIcon, ShieldIcon, SnowflakeIcon } from '#client/features/site/icons.tsx';
import { PageHero } from '#client/features/site/page-hero.tsx';
import { PlanCards } from '#client/features/site/plan-cards.tsx';
import { PlanComparisonTable } from '#client/features/site/plan-comparison-table.tsx';
import { PlanSignupForm } from '#client/features/site/plan-signup-form.tsx';
import { siteImages } from '#client/features/site/site-images.ts';
import { buttonClass } from '#client/features/site/ui.ts';
import { company } from '#client/lib/company.ts';
import { pageMeta } from '#client/lib/seo.ts';
import { maintenancePlans } from '#shared/maintenance-plans.ts';

const priceList = maintenancePlans.map((plan) => `${plan.name} $${plan.yearlyPrice}`).join(', ');

export const meta = () =>
  pageMeta({
    title: `HVAC Maintenance Plans from $${Math.min(...maintenancePlans.map((plan) => plan.yearlyPrice))}/Year | ${company.name}`,
    description: `Compare our three yearly heating and cooling maintenance plans (${priceList} a year): tune-up visits, repair discounts, response times, coverage and emergency service.`,
    path: '/MaintenancePlan',
  });

const reasons = [
  {
    icon: <AirIcon className="h-6 w-6" />,
    title: 'Humidity clogs drains',
    text: 'Our air conditioners pull gallons of water out of the air every day. Algae grows in the drain line, and a clogged line means a shut-down system or a stained ceiling.',
  },
  {
    icon: <SnowflakeIcon className="h-6 w-6" />,
    title: 'Heat pumps never rest',
    text: 'A heat pump cools for eight months and heats for the rest, so it works far more hours than a northern AC. Two visits a year keep up with it.',
  },
  {
    icon: <ShieldIcon className="h-6 w-6" />,
    title: 'Salt air corrodes coils',
    text: 'Near the water, coils and electrical parts corrode years early. Cleaning and protective treatment at each visit adds years to the outdoor unit.',
  },
];

const tuneUpChecklist = [
  'Clean the outdoor coil and straighten fins',
  'Flush and treat the condensate drain line',
  'Check refrigerant pressures and temperature split',
  'Test capacitors, contactors and electrical connections',
  'Inspect the blower, belts and motor; lubricate where needed',
  'Replace or clean the air filter',
  'Test heat strips, defrost controls or burners and flame sensor',
  'Carbon-monoxide check on gas and propane furnaces',
  'Calibrate the thermostat and check its settings',
  'A written report with photos of anything that needs attention',
];

const questions = [
  {
    question: 'When are the tune-up visits?',
    answer:
      'With one visit, we come in the spring before the cooling season. With two, we come in the spring for cooling and in the fall for heating. We call to book each visit at a time that suits you.',
  },
  {
    question: 'Does a plan cover more than one system?',
    answer:
      'Each plan covers one heating and cooling system. Many homes here have two, one upstairs and one down; each system needs its own plan, and we visit both on the same day.',
  },
  {
    question: 'What does the equipment coverage include?',
    answer:
      'Basic components coverage (Advanced) pays for common wear parts such as capacitors, contactors and drain-line cleanouts found during service. Comprehensive coverage (Premium) adds major parts such as motors and control boards. Neither replaces the manufacturer\u2019s warranty on compressors and coils; we handle those claims for you.',
  },
  {
    question: 'Can I cancel?',
    answer:
      'Yes. Plans run for a year and you can cancel at any time; we refund the unused part of the year, less the regular price of any visits and discounts you have already used.',
  },
];

export default function MaintenancePlansPage() {
  return (
    <>
      <PageHero
        eyebrow="Heating and cooling care"
        title="Maintenance Plans"
        lead={
          <p>
            Regular tune-ups keep your system efficient, prevent most breakdowns and protect your warranty. Choose the plan that
            fits your home: yearly visits, discounts on repairs and faster help when you need it.
          </p>
        }
        actions={
          <>
            <a href="#sign-up" className={buttonClass.primary}>
              Sign up for a plan
            </a>
            <a href="#compare-plans" className={buttonClass.secondary}>
              Compare the plans
            </a>
          </>
        }
        image={siteImages.thermostat}
        imageAlt="A smart thermostat set to 72 degrees beside a maintenance checklist"
      />

      <ContentSection
        id="why-maintenance"
        tone="muted"
        eyebrow="Why it matters here"
        title="Low Country systems work harder"
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {reasons.map((reason) => (
            <li key={reason.title} className="rounded-2xl bg-white p-6 shadow-sm">
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                {reason.icon}
              </span>
              <h3 className="mt-4 text-lg font-bold text-brand-900">{reason.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-700">{reason.text}</p>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection
        id="plans"
        eyebrow="Three plans"
        title="Choose your plan"
        intro={<p>Every plan is billed once a year per system. Prices include the visits; parts and repairs are discounted.</p>}
        centered
      >
        <PlanCards idPrefix="plan" />
      </ContentSection>

      <ContentSection id="compare-plans" tone="muted" eyebrow="Side by side" title="Compare the plans">
        <PlanComparisonTable idPrefix="plans-compare" />
      </ContentSection>

      <ContentSection
        id="sign-up"
        eyebrow="Sign up"
        title="Sign up for a plan"
        intro={<p>Choose your plan and how you would like to pay. Our office confirms it and calls you to book your first tune-up.</p>}
      >
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
          <PlanSignupForm />
        </div>
      </ContentSection>

      <ContentSection
        id="tune-up"
        tone="muted"
        eyebrow="Every visit"
        title="What a tune-up includes"
        intro={<p>Each visit takes about an hour per system and follows the same written checklist, so nothing is skipped.</p>}
      >
        <ul className="grid gap-x-8 gap-y-3 sm:grid-cols-2">
          {tuneUpChecklist.map((item) => (
            <li key={item} className="flex gap-3">
              <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
              <span className="text-slate-800">{item}</span>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection id="plan-questions" tone="tint" eyebrow="Questions" title="Maintenance plan FAQ">
        <div className="space-y-4">
          {questions.map((item) => (
            <details key={item.question} className="group rounded-2xl bg-white p-5 shadow-sm open:shadow-md">
              <summary className="flex cursor-pointer list-none items-center [&::-webkit-details-marker]:hidden justify-between gap-4 text-lg font-semibold text-brand-900">
                {item.question}
                <span aria-hidden="true" className="text-2xl leading-none text-accent-700 transition-transform group-open:rotate-45">
                  +
                </span>
              </summary>
              <p className="mt-3 leading-relaxed text-slate-700">{item.answer}</p>
            </details>
          ))}
        </div>
      </ContentSection>

      <CtaBand id="plans-cta" title="Have a question about a plan?" actionLabel="Ask about a plan">
        <p>Tell us about your home and how many systems you have. We will recommend a plan, confirm the price and book your first visit.</p>
      </CtaBand>
    </>
  );
}
