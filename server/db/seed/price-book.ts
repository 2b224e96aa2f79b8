import { sql } from 'drizzle-orm';
import { serviceCallFeeFrom } from '#shared/business.ts';
import { planFirstYearDiscount } from '#shared/coupons.ts';
import type { PriceBookItemKind } from '#shared/enums.ts';
import { maintenancePlans } from '#shared/maintenance-plans.ts';
import type { Database } from '#server/db/client.ts';
import { priceBookItems, taxRates } from '#server/db/schema/index.ts';

/**
 * The demo price book (decision 024-f): what a residential HVAC company in Bluffton / Hilton Head
 * charges in 2026, consistent with the public site ($89 diagnostic, the three maintenance plans,
 * the coupons). Prices and costs in dollars here, cents in the table. Labor, services, flat-rate
 * tasks and plans are not taxable; parts and equipment are (the accountant must confirm).
 */
type DemoItem = [kind: PriceBookItemKind, code: string, name: string, category: string, unit: string, price: number, cost: number, description?: string];

const plan = (name: string) => maintenancePlans.find((candidate) => candidate.name === name)!.yearlyPrice;

export const demoPriceBook: readonly DemoItem[] = [
  // Diagnostics and service calls
  ['service', 'DIAG-STD', 'Diagnostic service call', 'Diagnostics', 'each', serviceCallFeeFrom, 0, 'Trip and full system diagnosis during business hours; credited toward an approved repair.'],
  ['service', 'DIAG-AH', 'After-hours diagnostic (evenings, weekends)', 'Diagnostics', 'each', 149, 0, 'Evenings after 6 pm, Saturdays and Sundays.'],
  ['service', 'DIAG-HOL', 'Holiday emergency diagnostic', 'Diagnostics', 'each', 199, 0],
  ['service', 'SECOND-OPINION', 'Second opinion on a replacement quote', 'Diagnostics', 'each', 0, 0, 'Free inspection when another company quoted a replacement (site offer).'],
  ['service', 'IAQ-TEST', 'Indoor air quality assessment', 'Diagnostics', 'each', 129, 0],
  ['service', 'DUCT-LEAK-TEST', 'Duct leakage test (duct blaster)', 'Diagnostics', 'each', 295, 0],
  ['service', 'LEAK-SEARCH', 'Refrigerant leak search (electronic + bubble)', 'Diagnostics', 'each', 249, 0],
  // Labor
  ['labor', 'LAB-REG', 'Labor, regular hours', 'Labor', 'hour', 125, 45, 'Monday to Friday, 8 am to 6 pm.'],
  ['labor', 'LAB-AH', 'Labor, after hours and weekends', 'Labor', 'hour', 185, 65],
  ['labor', 'LAB-HOL', 'Labor, holidays', 'Labor', 'hour', 225, 80],
  ['labor', 'LAB-HELPER', 'Helper labor', 'Labor', 'hour', 65, 24],
  ['labor', 'LAB-ATTIC', 'Attic labor surcharge (over 110 °F)', 'Labor', 'hour', 35, 10],
  // Maintenance plans (the site's prices)
  ['service', 'PLAN-ESS', 'Essential maintenance plan (1 year)', 'Maintenance plans', 'year', plan('Essential'), 40],
  ['service', 'PLAN-ADV', 'Advanced maintenance plan (1 year)', 'Maintenance plans', 'year', plan('Advanced'), 70],
  ['service', 'PLAN-PREM', 'Premium maintenance plan (1 year)', 'Maintenance plans', 'year', plan('Premium'), 100],
  ['service', 'PLAN-FIRST-YEAR', 'Maintenance plan first-year discount', 'Discounts', 'each', -planFirstYearDiscount, 0, 'New plan members, first year only.'],
  ['service', 'COUPON-REPAIR25', '$25 off any repair of $150 or more', 'Discounts', 'each', -25, 0, 'Website coupon; not combined with other offers.'],
  ['service', 'TUNEUP-AC', 'A/C tune-up (non-member)', 'Maintenance', 'each', 129, 25],
  ['service', 'TUNEUP-HEAT', 'Heating tune-up (non-member)', 'Maintenance', 'each', 129, 25],
  ['service', 'TUNEUP-MINI', 'Mini-split tune-up, per head', 'Maintenance', 'each', 99, 15],
  // Flat-rate tasks (labor included; parts on their own line where noted)
  ['task', 'FR-CAP', 'Replace run capacitor (part included)', 'Flat-rate repairs', 'each', 245, 38],
  ['task', 'FR-CONT', 'Replace contactor (part included)', 'Flat-rate repairs', 'each', 265, 42],
  ['task', 'FR-CONDLINE', 'Condensate line flush and treatment', 'Flat-rate repairs', 'each', 149, 8],
  ['task', 'FR-FLOATSW', 'Install condensate float switch', 'Flat-rate repairs', 'each', 179, 22],
  ['task', 'FR-COIL-COND', 'Condenser coil cleaning', 'Flat-rate repairs', 'each', 189, 15],
  ['task', 'FR-COIL-EVAP', 'Evaporator coil cleaning (in place)', 'Flat-rate repairs', 'each', 349, 30],
  ['task', 'FR-TSTAT', 'Thermostat install (customer-supplied)', 'Flat-rate repairs', 'each', 159, 0],
  ['task', 'FR-TSTAT-SMART', 'Smart thermostat installed (ecobee Premium)', 'Flat-rate repairs', 'each', 449, 235],
  ['task', 'FR-FANMOTOR', 'Replace condenser fan motor (motor included)', 'Flat-rate repairs', 'each', 595, 165],
  ['task', 'FR-BLOWER-ECM', 'Replace ECM blower motor (motor included)', 'Flat-rate repairs', 'each', 1495, 640],
  ['task', 'FR-IGNITER', 'Replace furnace hot-surface igniter (part included)', 'Flat-rate repairs', 'each', 289, 35],
  ['task', 'FR-FLAME', 'Clean or replace flame sensor', 'Flat-rate repairs', 'each', 169, 14],
  ['task', 'FR-TXV', 'Replace TXV (recovery and recharge extra)', 'Flat-rate repairs', 'each', 895, 140],
  ['task', 'FR-DRAINPAN', 'Replace secondary drain pan', 'Flat-rate repairs', 'each', 325, 45],
  ['task', 'FR-DISCONNECT', 'Replace outdoor disconnect and whip', 'Flat-rate repairs', 'each', 285, 48],
  ['task', 'FR-SURGE', 'Install surge protector on condenser', 'Flat-rate repairs', 'each', 249, 55],
  ['task', 'FR-HARDSTART', 'Install hard-start kit', 'Flat-rate repairs', 'each', 275, 38],
  ['task', 'FR-UVLIGHT', 'Install UV germicidal light', 'Indoor air quality', 'each', 649, 190],
  ['task', 'FR-MEDIA', 'Install 4-inch media filter cabinet', 'Indoor air quality', 'each', 425, 95],
  ['task', 'FR-DUCT-SEAL', 'Seal duct connections (per run)', 'Ductwork', 'each', 85, 6],
  ['task', 'FR-DUCT-RUN', 'Replace flex duct run (up to 25 ft)', 'Ductwork', 'each', 395, 60],
  ['task', 'FR-RECHARGE', 'Refrigerant recovery, evacuation and recharge', 'Refrigerant', 'each', 425, 25],
  // Parts
  ['part', 'CAP-35-5', 'Dual run capacitor 35/5 µF 440 V', 'Electrical', 'each', 89, 14],
  ['part', 'CAP-45-5', 'Dual run capacitor 45/5 µF 440 V', 'Electrical', 'each', 95, 16],
  ['part', 'CAP-55-5', 'Dual run capacitor 55/5 µF 440 V', 'Electrical', 'each', 105, 18],
  ['part', 'CAP-10', 'Single run capacitor 10 µF 370 V', 'Electrical', 'each', 65, 9],
  ['part', 'CONT-1P30', 'Contactor 1-pole 30 A 24 V coil', 'Electrical', 'each', 89, 15],
  ['part', 'CONT-2P40', 'Contactor 2-pole 40 A 24 V coil', 'Electrical', 'each', 115, 22],
  ['part', 'HARDSTART', 'Hard-start kit (5-2-1)', 'Electrical', 'each', 145, 32],
  ['part', 'FUSE-30', 'Time-delay fuses 30 A (pair)', 'Electrical', 'pair', 29, 6],
  ['part', 'TRANS-40VA', 'Control transformer 40 VA', 'Electrical', 'each', 119, 21],
  ['part', 'IGN-HSI', 'Hot-surface igniter (silicon nitride)', 'Heating parts', 'each', 149, 28],
  ['part', 'FLAME-SENS', 'Flame sensor', 'Heating parts', 'each', 79, 11],
  ['part', 'PRESS-SW', 'Furnace pressure switch', 'Heating parts', 'each', 139, 26],
  ['part', 'LIMIT-SW', 'High-limit switch', 'Heating parts', 'each', 99, 15],
  ['part', 'HEAT-STRIP-10', 'Electric heat strip kit 10 kW', 'Heating parts', 'each', 395, 115],
  ['part', 'FLOAT-SW', 'Condensate float switch', 'Drainage', 'each', 59, 12],
  ['part', 'COND-PUMP', 'Condensate pump', 'Drainage', 'each', 229, 62],
  ['part', 'FAN-MOTOR-14', 'Condenser fan motor 1/4 HP', 'Motors', 'each', 329, 95],
  ['part', 'FAN-BLADE-22', 'Condenser fan blade 22 in', 'Motors', 'each', 119, 28],
  ['part', 'TXV-3T', 'Thermal expansion valve, 3 ton', 'Refrigerant', 'each', 329, 88],
  ['part', 'FILTER-DRIER', 'Liquid-line filter drier', 'Refrigerant', 'each', 69, 12],
  ['part', 'R410A-LB', 'Refrigerant R-410A', 'Refrigerant', 'lb', 95, 22, 'Charged by the pound.'],
  ['part', 'R32-LB', 'Refrigerant R-32', 'Refrigerant', 'lb', 105, 26],
  ['part', 'R454B-LB', 'Refrigerant R-454B', 'Refrigerant', 'lb', 125, 38],
  ['part', 'R22-LB', 'Refrigerant R-22 (reclaimed)', 'Refrigerant', 'lb', 175, 75, 'Phased out; reclaimed supply only.'],
  ['part', 'FILTER-1IN', 'Pleated filter 1 in (MERV 8)', 'Filters', 'each', 18, 5],
  ['part', 'FILTER-4IN', 'Media filter 4 in (MERV 11)', 'Filters', 'each', 69, 22],
  ['part', 'FILTER-MINI', 'Mini-split washable filter set', 'Filters', 'each', 39, 9],
  ['part', 'TSTAT-BASIC', 'Programmable thermostat (Honeywell T4)', 'Thermostats', 'each', 129, 48],
  ['part', 'TSTAT-SMART', 'Smart thermostat (ecobee Premium)', 'Thermostats', 'each', 329, 205],
  ['part', 'PAD-3648', 'Equipment pad 36 × 48 in', 'Installation materials', 'each', 95, 32],
  ['part', 'LINESET-25', 'Line set 3/8 × 3/4, 25 ft', 'Installation materials', 'each', 229, 96],
  ['part', 'HURR-STRAPS', 'Hurricane tie-down kit (SC coastal code)', 'Installation materials', 'each', 85, 24],
  ['part', 'DUCT-FLEX-8', 'Insulated flex duct 8 in R-8', 'Ductwork', 'ft', 6.5, 1.6],
  // Equipment: good / better / best
  ['equipment', 'HP-2T-14', 'Heat pump 2 ton, 14.3 SEER2 (good)', 'Heat pumps', 'each', 3495, 1650],
  ['equipment', 'HP-3T-14', 'Heat pump 3 ton, 14.3 SEER2 (good)', 'Heat pumps', 'each', 3995, 1890],
  ['equipment', 'HP-3T-16', 'Heat pump 3 ton, 16 SEER2 two-stage (better)', 'Heat pumps', 'each', 5295, 2540],
  ['equipment', 'HP-3T-20', 'Heat pump 3 ton, 20 SEER2 variable speed (best)', 'Heat pumps', 'each', 7895, 3890],
  ['equipment', 'HP-4T-16', 'Heat pump 4 ton, 16 SEER2 two-stage (better)', 'Heat pumps', 'each', 5995, 2890],
  ['equipment', 'HP-5T-20', 'Heat pump 5 ton, 20 SEER2 variable speed (best)', 'Heat pumps', 'each', 9295, 4590],
  ['equipment', 'AC-3T-14', 'Air conditioner 3 ton, 13.4 SEER2 (good)', 'Air conditioners', 'each', 3295, 1520],
  ['equipment', 'AC-3T-17', 'Air conditioner 3 ton, 17 SEER2 two-stage (better)', 'Air conditioners', 'each', 4795, 2290],
  ['equipment', 'AH-3T-PSC', 'Air handler 3 ton, multi-speed (good)', 'Air handlers', 'each', 1895, 880],
  ['equipment', 'AH-3T-ECM', 'Air handler 3 ton, variable-speed ECM (better)', 'Air handlers', 'each', 2695, 1290],
  ['equipment', 'AH-3T-COMM', 'Air handler 3 ton, communicating (best)', 'Air handlers', 'each', 3495, 1690],
  ['equipment', 'FURN-60-80', 'Gas furnace 60k BTU, 80% AFUE (good)', 'Furnaces', 'each', 2495, 1090],
  ['equipment', 'FURN-80-96', 'Gas furnace 80k BTU, 96% AFUE two-stage (better)', 'Furnaces', 'each', 3895, 1720],
  ['equipment', 'FURN-80-98', 'Gas furnace 80k BTU, 98% AFUE modulating (best)', 'Furnaces', 'each', 5195, 2390],
  ['equipment', 'MINI-9K', 'Ductless mini-split 9,000 BTU single zone', 'Mini-splits', 'each', 3295, 1390],
  ['equipment', 'MINI-12K', 'Ductless mini-split 12,000 BTU single zone', 'Mini-splits', 'each', 3695, 1590],
  ['equipment', 'MINI-18K', 'Ductless mini-split 18,000 BTU single zone', 'Mini-splits', 'each', 4495, 1990],
  ['equipment', 'MINI-2Z-18K', 'Ductless mini-split 18,000 BTU two zones', 'Mini-splits', 'each', 6495, 2890],
  ['equipment', 'MINI-3Z-27K', 'Ductless mini-split 27,000 BTU three zones', 'Mini-splits', 'each', 8995, 4090],
  ['equipment', 'DEHUM-WH', 'Whole-home dehumidifier 120 pint', 'Indoor air quality', 'each', 2495, 1190],
  ['equipment', 'AIR-CLEANER', 'Whole-home electronic air cleaner', 'Indoor air quality', 'each', 1295, 540],
  // Installation labor packages
  ['task', 'INST-SYSTEM', 'System installation labor (split system, standard)', 'Installation', 'each', 2400, 1100, 'Removal and disposal of old equipment, permit, start-up and commissioning.'],
  ['task', 'INST-MINI', 'Mini-split installation labor, per head', 'Installation', 'each', 950, 420],
  ['service', 'PERMIT', 'Permit and inspection (Beaufort County)', 'Installation', 'each', 175, 125],
  ['service', 'DISPOSAL', 'Old equipment recovery and disposal', 'Installation', 'each', 150, 40],
];

const taxableKinds = new Set<PriceBookItemKind>(['part', 'equipment']);

/**
 * The demo price book and tax rates, each only into an empty table (a restart or a --force seed
 * adds nothing twice). About a hundred rows in two statements: nothing the bench seed can measure.
 */
export async function seedPriceBook(db: Database): Promise<{ items: number; taxRates: number }> {
  let items = 0;
  let rates = 0;
  const [bookCount] = (await db.execute<{ count: number }>(sql`select count(*)::int as count from ${priceBookItems}`)).rows;
  if (Number(bookCount?.count ?? 0) === 0) {
    const rows = demoPriceBook.map(([kind, code, name, category, unit, price, cost, description]) => ({
      kind,
      code,
      name,
      category,
      unit,
      description: description ?? '',
      priceCents: Math.round(price * 100),
      costCents: Math.round(cost * 100),
      taxable: taxableKinds.has(kind),
      active: true,
    }));
    await db.insert(priceBookItems).values(rows);
    items = rows.length;
  }
  const [rateCount] = (await db.execute<{ count: number }>(sql`select count(*)::int as count from ${taxRates}`)).rows;
  if (Number(rateCount?.count ?? 0) === 0) {
    const demoRates = [
      // South Carolina 6 % state sales tax + Beaufort County 1 % local option: 7 % in Bluffton and Hilton Head.
      { name: 'SC 6% + Beaufort County 1%', ratePpm: 70_000, isDefault: true, active: true },
      { name: 'SC state only 6%', ratePpm: 60_000, isDefault: false, active: true },
      { name: 'Exempt (resale or exemption certificate)', ratePpm: 0, isDefault: false, active: true },
    ];
    await db.insert(taxRates).values(demoRates);
    rates = demoRates.length;
  }
  return { items, taxRates: rates };
}
