import { describe, expect, it } from 'vitest';
import { estimateServiceTypes } from '#shared/enums.ts';
import {
  estimateTimeToWorkOrderTime,
  estimateToWorkOrderServiceType,
  leadConversionSchema,
  leadListQuerySchema,
  leadPriorityToWorkOrderPriority,
  splitLeadAddress,
} from '#shared/lead.ts';
import { descriptionPreview, formatResponseTime } from '#client/features/leads/labels.ts';

describe('lead conversion mappings (decision 012)', () => {
  it('maps every estimate service type to a work-order service type', () => {
    expect(estimateServiceTypes.map((type) => estimateToWorkOrderServiceType[type])).toEqual([
      'installation',
      'repair',
      'installation',
      'repair',
      'maintenance',
      'ductwork',
      'inspection',
    ]);
  });

  it('maps urgent to high priority and the evening window to anytime', () => {
    expect(leadPriorityToWorkOrderPriority('urgent')).toBe('high');
    expect(leadPriorityToWorkOrderPriority('normal')).toBe('normal');
    expect(estimateTimeToWorkOrderTime('morning')).toBe('morning');
    expect(estimateTimeToWorkOrderTime('afternoon')).toBe('afternoon');
    expect(estimateTimeToWorkOrderTime('evening')).toBe('anytime');
    expect(estimateTimeToWorkOrderTime(null)).toBe('anytime');
  });

  it('splits "street, city, ST zip" and keeps anything else as the street', () => {
    expect(splitLeadAddress('12 Oak St, Hilton Head Island, SC 29926')).toEqual({ address: '12 Oak St', city: 'Hilton Head Island', state: 'SC', zip: '29926' });
    expect(splitLeadAddress('5 Main St, Apt 2, Beaufort, sc')).toEqual({ address: '5 Main St, Apt 2', city: 'Beaufort', state: 'SC' });
    expect(splitLeadAddress('Lot 7 off Hwy 278')).toEqual({ address: 'Lot 7 off Hwy 278' });
  });
});

describe('lead schemas', () => {
  it('defaults to the Active tab and refuses unknown tabs', () => {
    expect(leadListQuerySchema.parse({})).toMatchObject({ filter: 'active', search: '', page: 1, pageSize: 25 });
    expect(leadListQuerySchema.safeParse({ filter: 'hot' }).success).toBe(false);
  });

  it('names the field of each conversion problem', () => {
    const result = leadConversionSchema('2026-01-10').safeParse({
      customer: { mode: 'new', name: '', phone: '12', address: 'x' },
      workOrder: { title: '', description: 'd', serviceDate: '2026-01-09' },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['customer.name', 'customer.phone', 'workOrder.title']));
  });
});

describe('lead screen labels', () => {
  it('previews 150 characters of the description', () => {
    expect(descriptionPreview('a'.repeat(150))).toBe('a'.repeat(150));
    expect(descriptionPreview('a'.repeat(151))).toBe(`${'a'.repeat(150)}...`);
  });

  it('writes the response time in hours, or minutes under an hour', () => {
    expect(formatResponseTime(null)).toBe('—');
    expect(formatResponseTime(2.4)).toBe('2.4 hours');
    expect(formatResponseTime(1)).toBe('1 hour');
    expect(formatResponseTime(0.75)).toBe('45 minutes');
  });
});
