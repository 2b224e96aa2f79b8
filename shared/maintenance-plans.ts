/** Spec 000 section 9: the three yearly maintenance plans. One source for the site and the chat. */
export type MaintenancePlan = {
  id: 'essential' | 'advanced' | 'premium';
  name: string;
  yearlyPrice: number;
  visitsPerYear: number;
  repairDiscountPercent: number;
  responseTime: string;
  noOvertimeCharges: boolean;
  priorityEmergency: boolean;
  equipmentCoverage: string;
  supportHours: string;
  emergencyServiceIncluded: boolean;
};

export const maintenancePlans: readonly MaintenancePlan[] = [
  {
    id: 'essential',
    name: 'Essential',
    yearlyPrice: 150,
    visitsPerYear: 1,
    repairDiscountPercent: 10,
    responseTime: '24-48 hours',
    noOvertimeCharges: false,
    priorityEmergency: false,
    equipmentCoverage: 'No equipment coverage',
    supportHours: 'Standard support hours',
    emergencyServiceIncluded: false,
  },
  {
    id: 'advanced',
    name: 'Advanced',
    yearlyPrice: 250,
    visitsPerYear: 2,
    repairDiscountPercent: 15,
    responseTime: '12-24 hours',
    noOvertimeCharges: true,
    priorityEmergency: false,
    equipmentCoverage: 'Basic components coverage',
    supportHours: 'Extended hours',
    emergencyServiceIncluded: true,
  },
  {
    id: 'premium',
    name: 'Premium',
    yearlyPrice: 350,
    visitsPerYear: 2,
    repairDiscountPercent: 20,
    responseTime: '6-12 hours',
    noOvertimeCharges: true,
    priorityEmergency: true,
    equipmentCoverage: 'Comprehensive coverage',
    supportHours: '24/7 support',
    emergencyServiceIncluded: true,
  },
];

// Maintenance agreements (issue 22, decision 027-b) ----------------------------------------------

export type MaintenancePlanId = MaintenancePlan['id'];
export const maintenancePlanIds = ['essential', 'advanced', 'premium'] as const satisfies readonly MaintenancePlanId[];

/** A season a plan's visit belongs to: its window of months (1-12, inclusive) in the company's time zone. */
export const maintenanceSeasons = {
  spring: { label: 'Spring', firstMonth: 3, lastMonth: 5 },
  fall: { label: 'Fall', firstMonth: 9, lastMonth: 11 },
} as const;
export type MaintenanceSeason = keyof typeof maintenanceSeasons;

export type PlanVisitRule = { season: MaintenanceSeason; title: string; checklist: readonly string[] };

const coolingChecklist = [
  'Replace or clean the air filter',
  'Clean the condenser coil and clear debris around the unit',
  'Check refrigerant pressures and temperature split',
  'Test capacitors, contactor and electrical connections',
  'Clear the condensate drain line and pan',
  'Check the thermostat and run a full cooling cycle',
] as const;
const heatingChecklist = [
  'Replace or clean the air filter',
  'Inspect the heat exchanger or heat strips',
  'Test the igniter, flame sensor and safety controls',
  'Check the reversing valve and defrost cycle (heat pumps)',
  'Check for carbon monoxide at the unit and supply registers',
  'Check the thermostat and run a full heating cycle',
] as const;

/**
 * Each plan's visits a year: which season, the work order's title and its checklist (the work
 * order's tasks). One visit a year is the spring cooling tune-up (the Lowcountry's season that
 * matters); two are spring cooling and fall heating.
 */
export const maintenancePlanVisits: Record<MaintenancePlanId, readonly PlanVisitRule[]> = {
  essential: [{ season: 'spring', title: 'Cooling tune-up', checklist: coolingChecklist }],
  advanced: [
    { season: 'spring', title: 'Cooling tune-up', checklist: coolingChecklist },
    { season: 'fall', title: 'Heating tune-up', checklist: heatingChecklist },
  ],
  premium: [
    { season: 'spring', title: 'Cooling tune-up', checklist: coolingChecklist },
    { season: 'fall', title: 'Heating tune-up', checklist: [...heatingChecklist, 'Priority: inspect the ductwork and insulation in the attic'] },
  ],
};

export function maintenancePlanById(id: string): MaintenancePlan | undefined {
  return maintenancePlans.find((plan) => plan.id === id);
}

/** A plan's price in cents for a term of 12 months, yearly or monthly (twelve payments, the last one taking the rounding). */
export function planPriceCents(planId: MaintenancePlanId): number {
  return maintenancePlanById(planId)!.yearlyPrice * 100;
}
export function planMonthlyCents(planId: MaintenancePlanId): number {
  return Math.round(planPriceCents(planId) / 12);
}
