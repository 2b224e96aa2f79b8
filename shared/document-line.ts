import { z } from 'zod';
import { priceBookItemKinds } from './enums.ts';
import { discountBpsSchema, documentTotals, nonNegativeCentsSchema, quantityMilliSchema, taxRatePpmSchema, unitPriceCentsSchema } from './money.ts';

// A line of a quote option, an invoice or a credit note (issue 20, decision 024-c): its input
// contract (used by both documents' routes and screens) and its stored form. Money is integer
// cents, quantities thousandths, tax rates ppm (shared/money.ts).

const optionalText = (max: number) => z.string().trim().max(max).default('');

export const documentLineInputSchema = z
  .object({
    priceBookItemId: z.uuid().nullable().default(null),
    kind: z.enum(priceBookItemKinds).default('service'),
    code: optionalText(40),
    name: z.string().trim().min(1, 'Name the line').max(200),
    description: optionalText(2000),
    quantityMilli: quantityMilliSchema,
    unitPriceCents: unitPriceCentsSchema,
    discountBps: discountBpsSchema.default(0),
    discountCents: nonNegativeCentsSchema.default(0),
    taxable: z.boolean().default(false),
    taxRatePpm: taxRatePpmSchema.default(0),
  })
  .transform((line) => ({ ...line, taxRatePpm: line.taxable ? line.taxRatePpm : 0 }));
export type DocumentLineInput = z.input<typeof documentLineInputSchema>;
export type DocumentLineValues = z.output<typeof documentLineInputSchema>;

/** Totals must add up under shared/money.ts's rule: a discount past its line or a negative total is refused here. */
export const documentLinesSchema = z
  .array(documentLineInputSchema)
  .max(200, 'At most 200 lines')
  .superRefine((lines, context) => {
    try {
      const totals = documentTotals(lines);
      if (totals.totalCents < 0) context.addIssue({ code: 'custom', message: 'The total cannot be negative.', path: [] });
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : 'Invalid line', path: [] });
    }
  });


export const documentLineSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  priceBookItemId: z.string().nullable(),
  kind: z.enum(priceBookItemKinds),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  quantityMilli: z.number().int(),
  unitPriceCents: z.number().int(),
  discountBps: z.number().int(),
  discountCents: z.number().int(),
  taxable: z.boolean(),
  taxRatePpm: z.number().int(),
  amountCents: z.number().int(),
});
export type DocumentLine = z.infer<typeof documentLineSchema>;

/** A stored line's values (quote or invoice line row), as the money rule and the line contract take them. */
export function documentLineValuesOf(line: Omit<DocumentLine, 'id' | 'position' | 'amountCents' | 'kind'> & { kind: string }): DocumentLineValues {
  return {
    priceBookItemId: line.priceBookItemId,
    kind: line.kind as DocumentLineValues['kind'],
    code: line.code,
    name: line.name,
    description: line.description,
    quantityMilli: line.quantityMilli,
    unitPriceCents: line.unitPriceCents,
    discountBps: line.discountBps,
    discountCents: line.discountCents,
    taxable: line.taxable,
    taxRatePpm: line.taxRatePpm,
  };
}
