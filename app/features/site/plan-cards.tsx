import { Link } from 'react-router';
import { maintenancePlans, type MaintenancePlan } from '#shared/maintenance-plans.ts';
import { CheckIcon, CrossIcon } from './icons.tsx';
import { buttonClass } from './ui.ts';

type PlanFeature = { label: string; included: boolean };

/** Every feature of a plan (spec 000 section 9), each phrased so it reads right without its icon. */
export function planFeatures(plan: MaintenancePlan): PlanFeature[] {
  const hasCoverage = !/^no\b/i.test(plan.equipmentCoverage);
  return [
    { label: `${plan.visitsPerYear} tune-up ${plan.visitsPerYear === 1 ? 'visit' : 'visits'} a year`, included: true },
    { label: `${plan.repairDiscountPercent}% discount on repairs`, included: true },
    { label: `Response within ${plan.responseTime}`, included: true },
    {
      label: plan.noOvertimeCharges ? 'No overtime charges after hours' : 'Overtime charges apply after hours',
      included: plan.noOvertimeCharges,
    },
    {
      label: plan.priorityEmergency ? 'Priority emergency status' : 'No priority emergency status',
      included: plan.priorityEmergency,
    },
    { label: plan.equipmentCoverage, included: hasCoverage },
    { label: plan.supportHours, included: true },
    {
      label: plan.emergencyServiceIncluded ? 'Emergency service included' : 'Emergency service not included',
      included: plan.emergencyServiceIncluded,
    },
  ];
}

const taglines: Record<MaintenancePlan['id'], string> = {
  essential: 'A yearly tune-up and member savings on repairs.',
  advanced: 'A visit before each season, after-hours help without overtime charges.',
  premium: 'Front of the line in an emergency, comprehensive coverage and support around the clock.',
};

/** The plan we point most homes to: two visits suit heat pumps, which heat and cool all year. */
const recommendedPlanId: MaintenancePlan['id'] = 'advanced';

type PlanCardsProps = {
  /** Prefix for element ids, unique on the page. */
  idPrefix: string;
};

/** The three yearly maintenance plans as cards, each listing every feature and a button to the sign-up form with its plan chosen. */
export function PlanCards({ idPrefix }: PlanCardsProps) {
  return (
    <ul className="grid gap-6 lg:grid-cols-3">
      {maintenancePlans.map((plan) => {
        const isRecommended = plan.id === recommendedPlanId;
        const titleId = `${idPrefix}-${plan.id}-title`;
        return (
          <li
            key={plan.id}
            className={`relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm md:p-8 ${
              isRecommended ? 'border-accent-600 ring-2 ring-accent-600 lg:-my-3 lg:py-11' : 'border-slate-200'
            }`}
          >
            {isRecommended ? (
              <p className="absolute -top-3.5 left-6 rounded-full bg-accent-700 px-3 py-1 text-xs font-bold uppercase tracking-wider text-white">
                We recommend
              </p>
            ) : null}
            <h3 id={titleId} className="text-2xl font-bold text-brand-900">
              {plan.name}
            </h3>
            <p className="mt-2 text-slate-600 lg:min-h-[4.5rem]">{taglines[plan.id]}</p>
            <p className="mt-5 flex items-baseline gap-1 text-brand-900">
              <span className="text-5xl font-extrabold tracking-tight">${plan.yearlyPrice}</span>
              <span className="text-lg font-medium text-slate-600">/year</span>
            </p>
            <ul className="mt-6 flex-1 space-y-3" aria-label={`${plan.name} plan features`}>
              {planFeatures(plan).map((feature) => (
                <li key={feature.label} className="flex gap-3">
                  {feature.included ? (
                    <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                  ) : (
                    <CrossIcon className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" />
                  )}
                  <span className={feature.included ? 'text-slate-800' : 'text-slate-600'}>{feature.label}</span>
                </li>
              ))}
            </ul>
            <Link
              to={`/MaintenancePlan?plan=${plan.id}#sign-up`}
              className={`mt-8 ${isRecommended ? buttonClass.primary : buttonClass.secondary}`}
            >
              Choose {plan.name}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
