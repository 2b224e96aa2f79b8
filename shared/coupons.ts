import { maintenancePlans } from './maintenance-plans.ts';

/**
 * The offers on /coupons. Pure data. Expiry is phrased relative to the customer's booking, never as
 * a calendar date, so the page cannot go stale.
 */
export type Coupon = {
  id: string;
  /** The big number on the coupon, e.g. '$25 OFF'. */
  value: string;
  title: string;
  description: string;
  /** Quote this when booking. */
  code: string;
  terms: readonly string[];
  expiry: string;
};

export const planFirstYearDiscount = 25;

const firstYearPrices = maintenancePlans
  .map((plan) => `${plan.name} $${plan.yearlyPrice - planFirstYearDiscount}`)
  .join(', ');

export const coupons: readonly Coupon[] = [
  {
    id: 'repair-25',
    value: '$25 OFF',
    title: '$25 off any repair',
    description:
      'Heating or cooling, upstairs or down: take $25 off any repair of $150 or more, on top of our flat-rate price you approve before we start.',
    code: 'REPAIR25',
    terms: [
      'Applies to repairs of $150 or more, before tax.',
      'One coupon per household per visit.',
      'Cannot be combined with other offers or with maintenance-plan repair discounts.',
      'Residential customers in our service area.',
    ],
    expiry: 'Renewed every month: good on repairs booked by the last day of the current month.',
  },
  {
    id: 'second-opinion',
    value: 'FREE',
    title: 'Free second opinion on replacement quotes',
    description:
      'Been told your system needs replacing? We will inspect it at no charge and tell you honestly whether a repair makes more sense, with photos of what we find.',
    code: 'SECONDLOOK',
    terms: [
      'Bring a written replacement quote from another licensed contractor.',
      'The system must be at a home in our service area.',
      'The visit is an inspection; any repair you choose is priced separately, and the $25 repair coupon applies to it.',
    ],
    expiry: 'Valid within 60 days of the date on the other company\u2019s quote.',
  },
  {
    id: 'plan-first-year',
    value: `$${planFirstYearDiscount} OFF`,
    title: 'Maintenance plan: first-year discount',
    description: `Join any maintenance plan and take $${planFirstYearDiscount} off your first year (${firstYearPrices}). Your first tune-up can be booked right away.`,
    code: 'PLAN25',
    terms: [
      'New plan members only; one discounted plan per system.',
      'Applies to the first year; renewals are at the regular yearly price.',
      'All plan benefits, including the repair discount, apply from the first day.',
    ],
    expiry: 'Ongoing offer for new members; if it ends, we will say so here at least 30 days beforehand.',
  },
  {
    id: 'service-members',
    value: '10% OFF',
    title: 'Military, veteran and first-responder discount',
    description:
      'A thank-you to the Marines and sailors of Parris Island and the Air Station, our veterans, and the firefighters, deputies, nurses and EMTs who serve the Low Country.',
    code: 'SERVICE10',
    terms: [
      'Takes 10% off repair labor, up to $150 per visit.',
      'Active duty, reserve, veterans and first responders; please show an ID or discharge papers at the visit.',
      'Cannot be combined with other coupons.',
    ],
    expiry: 'Ongoing: no expiry.',
  },
];
