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
