import type { ReactNode } from 'react';
import { maintenancePlans, type MaintenancePlan } from '#shared/maintenance-plans.ts';
import { CheckIcon, CrossIcon } from './icons.tsx';

function YesNo({ value, yes = 'Included', no = 'Not included' }: { value: boolean; yes?: string; no?: string }) {
  return value ? (
    <span className="inline-flex items-center gap-1.5 font-medium text-green-800">
      <CheckIcon className="h-5 w-5" />
      {yes}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 text-slate-600">
      <CrossIcon className="h-5 w-5 text-slate-400" />
      {no}
    </span>
  );
}

const rows: { label: string; cell: (plan: MaintenancePlan) => ReactNode }[] = [
  { label: 'Yearly price', cell: (plan) => <span className="font-semibold text-brand-900">${plan.yearlyPrice}/year</span> },
  { label: 'Tune-up visits per year', cell: (plan) => plan.visitsPerYear },
  { label: 'Repair discount', cell: (plan) => `${plan.repairDiscountPercent}%` },
  { label: 'Response time', cell: (plan) => plan.responseTime },
  { label: 'No overtime charges after hours', cell: (plan) => <YesNo value={plan.noOvertimeCharges} yes="Yes" no="No" /> },
  { label: 'Priority emergency status', cell: (plan) => <YesNo value={plan.priorityEmergency} yes="Yes" no="No" /> },
  { label: 'Equipment coverage', cell: (plan) => plan.equipmentCoverage },
  { label: 'Support hours', cell: (plan) => plan.supportHours },
  { label: 'Emergency service', cell: (plan) => <YesNo value={plan.emergencyServiceIncluded} /> },
];

/** The three plans side by side: a real table with a caption and row/column headers. */
export function PlanComparisonTable({ idPrefix }: { idPrefix: string }) {
  const captionId = `${idPrefix}-caption`;
  return (
    // Focusable so keyboard users can scroll it sideways on narrow screens.
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <table className="w-full min-w-[34rem] border-collapse text-left">
        <caption id={captionId} className="px-4 pt-5 pb-3 text-left text-lg font-semibold text-brand-900 sm:px-5">
          Maintenance plans compared
          <span className="mt-1 block text-sm font-normal text-slate-600 sm:hidden">Scroll sideways to see every plan.</span>
        </caption>
        <thead>
          <tr className="border-y border-slate-200 bg-slate-50">
            <th scope="col" className="sticky left-0 bg-slate-50 px-4 py-3 text-sm font-semibold uppercase tracking-wider text-slate-700 sm:px-5">
              Feature
            </th>
            {maintenancePlans.map((plan) => (
              <th key={plan.id} scope="col" className="px-4 py-3 text-base font-bold text-brand-900 sm:px-5">
                {plan.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="sticky left-0 max-w-40 bg-white px-4 py-3 font-medium text-slate-800 sm:max-w-none sm:px-5">
                {row.label}
              </th>
              {maintenancePlans.map((plan) => (
                <td key={plan.id} className="px-4 py-3 text-slate-700 sm:px-5">
                  {row.cell(plan)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
