import { z } from 'zod';
import { priceBookItemKinds, type PriceBookItemKind } from './enums.ts';
import { formatCents, maxUnitPriceCents, parseMoneyInput } from './money.ts';

/**
 * The price book (issue 20, decision 024-f): what the company sells, at what price and cost. Quote
 * and invoice lines copy an item when they are written (decision 024-c), so editing the book never
 * changes a sent document. Every staff member reads it; only admins change it.
 */

export const priceBookKindLabels: Record<PriceBookItemKind, string> = {
  service: 'Service',
  labor: 'Labor',
  part: 'Part',
  equipment: 'Equipment',
  task: 'Flat-rate task',
};

export const priceBookMessages = {
  notFound: 'That price book item no longer exists.',
  codeRequired: 'Enter a code.',
  codeInvalid: 'Use letters, digits, dashes, dots, slashes or underscores (up to 40), no spaces.',
  codeTaken: (code: string) => `Another item already has the code ${code} (codes ignore case). Choose another code.`,
  nameRequired: 'Enter a name.',
  nameTooLong: 'Keep the name under 120 characters.',
  descriptionTooLong: 'Keep the description under 2,000 characters.',
  categoryTooLong: 'Keep the category under 60 characters.',
  unitRequired: 'Enter a unit, for example each, hour or lb.',
  unitTooLong: 'Keep the unit under 20 characters.',
  kindInvalid: `Choose a kind: ${priceBookItemKinds.join(', ')}.`,
  priceInvalid: 'Enter a price in dollars, for example 89.00.',
  priceTooLarge: 'That price is too large.',
  costInvalid: 'Enter a cost in dollars (0 or more), for example 12.50.',
  stale: 'Someone else changed this item since you opened it. Review their version, then save again.',
  inUse: 'This item is on quotes or invoices, so it cannot be deleted. Deactivate it instead: it leaves the pickers and stays on those documents.',
  // Import
  notMultipart: 'Upload the CSV as a file (multipart/form-data, field "file").',
  wrongField: 'Upload the CSV in the field named "file".',
  noFile: 'Choose a CSV file to import.',
  oneFile: 'Upload one CSV file at a time.',
  tooLarge: 'That file is larger than 1 MB. Split it into smaller files.',
  notText: 'That file is not a CSV text file. Save it from your spreadsheet as "CSV UTF-8".',
  empty: 'That file has no rows to import.',
  tooManyRows: 'That file has more than 5,000 rows. Split it into smaller files.',
  headerMissing: (columns: string[]) => `The header row lacks the column${columns.length === 1 ? '' : 's'} ${columns.join(', ')}.`,
  headerUnknown: (column: string) => `The header row has a column this import does not know: ${column}.`,
  duplicateInFile: (code: string, line: number) => `The code ${code} is also on line ${line} of this file.`,
  unclosedQuote: 'A quoted field is not closed.',
  booleanInvalid: 'Enter yes or no.',
  importFailed: (errors: number) => `Nothing was imported: ${errors} error${errors === 1 ? '' : 's'} in the file.`,
} as const;

/** Codes as the office writes them: "DIAG-STD", "CAP-45/5", "R410A.LB". */
const codePattern = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;

export const priceBookCodeSchema = z
  .string(priceBookMessages.codeRequired)
  .trim()
  .min(1, priceBookMessages.codeRequired)
  .regex(codePattern, priceBookMessages.codeInvalid);

const oneLine = (value: string) => value.replace(/\s+/g, ' ');

/** The fields an item is created with and edited to (the form, the API and each import row). */
export const priceBookItemFieldsSchema = z.object({
  kind: z.enum(priceBookItemKinds, priceBookMessages.kindInvalid),
  code: priceBookCodeSchema,
  name: z.string(priceBookMessages.nameRequired).trim().min(1, priceBookMessages.nameRequired).max(120, priceBookMessages.nameTooLong).transform(oneLine),
  description: z.string().trim().max(2000, priceBookMessages.descriptionTooLong).default(''),
  category: z.string().trim().max(60, priceBookMessages.categoryTooLong).transform(oneLine).default(''),
  unit: z.string().trim().min(1, priceBookMessages.unitRequired).max(20, priceBookMessages.unitTooLong).default('each'),
  /** Integer cents; negative for a discount or coupon item. */
  priceCents: z.number(priceBookMessages.priceInvalid).int(priceBookMessages.priceInvalid).min(-maxUnitPriceCents, priceBookMessages.priceTooLarge).max(maxUnitPriceCents, priceBookMessages.priceTooLarge),
  costCents: z.number(priceBookMessages.costInvalid).int(priceBookMessages.costInvalid).min(0, priceBookMessages.costInvalid).max(maxUnitPriceCents, priceBookMessages.priceTooLarge).default(0),
  taxable: z.boolean().default(true),
  active: z.boolean().default(true),
});

export const priceBookItemCreateSchema = priceBookItemFieldsSchema;
export type PriceBookItemCreateInput = z.input<typeof priceBookItemCreateSchema>;

/** PUT: the whole item as the form shows it, with the `updatedAt` it was read at (409 when stale). */
export const priceBookItemUpdateSchema = priceBookItemFieldsSchema.extend({
  expectedUpdatedAt: z.iso.datetime({ offset: true }),
});
export type PriceBookItemUpdateInput = z.input<typeof priceBookItemUpdateSchema>;

export const priceBookItemStatusSchema = z.object({
  active: z.boolean(),
  expectedUpdatedAt: z.iso.datetime({ offset: true }).optional(),
});

export const priceBookItemSchema = z.object({
  id: z.string(),
  kind: z.enum(priceBookItemKinds),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  unit: z.string(),
  priceCents: z.number().int(),
  costCents: z.number().int(),
  taxable: z.boolean(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PriceBookItem = z.infer<typeof priceBookItemSchema>;

/** One item's answer: with whether quotes or invoices use it (then it may be deactivated, not deleted). */
export const priceBookItemResponseSchema = z.object({ item: priceBookItemSchema, inUse: z.boolean() });
export type PriceBookItemResponse = z.infer<typeof priceBookItemResponseSchema>;

export const priceBookSorts = ['name', 'code', 'category', 'price', 'updated'] as const;
export type PriceBookSort = (typeof priceBookSorts)[number];
export const priceBookActiveFilters = ['active', 'inactive', 'all'] as const;
export const priceBookPageSizes = [25, 50, 100] as const;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** GET /api/admin/price-book (and the export's filter): search, filters, sort, offset pages. */
export const priceBookListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  kind: z.preprocess(emptyToUndefined, z.enum(priceBookItemKinds).optional()),
  category: z.string().trim().max(60).optional(),
  active: z.preprocess(emptyToUndefined, z.enum(priceBookActiveFilters).default('active')),
  sort: z.preprocess(emptyToUndefined, z.enum(priceBookSorts).default('name')),
  dir: z.preprocess(emptyToUndefined, z.enum(['asc', 'desc']).default('asc')),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type PriceBookListQuery = z.output<typeof priceBookListQuerySchema>;
export type PriceBookListParams = z.input<typeof priceBookListQuerySchema>;

export const priceBookListResponseSchema = z.object({
  items: z.array(priceBookItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every category in the book, for the filter. */
  categories: z.array(z.string()),
});
export type PriceBookListResponse = z.infer<typeof priceBookListResponseSchema>;

/** GET /api/admin/price-book/lookup?ids=a,b: the line editors' items by id (inactive ones too). */
export const priceBookLookupQuerySchema = z.object({
  ids: z
    .string()
    .transform((value) => [...new Set(value.split(',').map((id) => id.trim()).filter(Boolean))])
    .pipe(z.array(z.string()).max(200)),
});
export const priceBookLookupResponseSchema = z.object({ items: z.array(priceBookItemSchema) });

// CSV ------------------------------------------------------------------------------------------

/** The CSV's columns, in the export's order; the import needs `code`, `name`, `kind` and `price`. */
export const priceBookCsvColumns = ['code', 'name', 'kind', 'category', 'unit', 'price', 'cost', 'taxable', 'active', 'description'] as const;
export type PriceBookCsvColumn = (typeof priceBookCsvColumns)[number];
export const priceBookCsvRequiredColumns: readonly PriceBookCsvColumn[] = ['code', 'name', 'kind', 'price'];
export const priceBookImportLimits = { maxBytes: 1024 * 1024, maxRows: 5000 } as const;
export const priceBookImportField = 'file';

/** Dollars as the CSV carries them: "89.00", "-25.00"; "1234.5" and "$1,234.50" read too. */
export function centsToCsvDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function parseCsvDollars(text: string): number | undefined {
  return parseMoneyInput(text);
}

export function parseCsvBoolean(text: string): boolean | undefined {
  const value = text.trim().toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(value)) return true;
  if (['no', 'n', 'false', '0'].includes(value)) return false;
  return undefined;
}

/** One error of an import, where a spreadsheet shows it: the file's line (1 = the header) and the column. */
export const priceBookImportErrorSchema = z.object({ line: z.number().int(), column: z.string().nullable(), message: z.string() });
export type PriceBookImportError = z.infer<typeof priceBookImportErrorSchema>;

export const priceBookImportQuerySchema = z.object({
  /** `true` (the default): check the file and say what it would do, changing nothing. */
  dryRun: z.enum(['true', 'false']).default('true'),
});

export const priceBookImportResultSchema = z.object({
  dryRun: z.boolean(),
  /** Whether the rows were written (never when there is an error, never on a dry run). */
  imported: z.boolean(),
  /** The file's data rows (the header not counted). */
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.array(priceBookImportErrorSchema),
  /** The first rows as they would be written, for the preview. */
  preview: z.array(
    z.object({ line: z.number().int(), action: z.enum(['create', 'update', 'unchanged']), code: z.string(), name: z.string(), priceCents: z.number().int() }),
  ),
});
export type PriceBookImportResult = z.infer<typeof priceBookImportResultSchema>;

/** "12 new, 30 updated, 0 errors". */
export function importSummary(result: Pick<PriceBookImportResult, 'created' | 'updated' | 'unchanged' | 'errors'>): string {
  const parts = [`${result.created} new`, `${result.updated} updated`];
  if (result.unchanged > 0) parts.push(`${result.unchanged} unchanged`);
  parts.push(`${result.errors.length} error${result.errors.length === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** Margin as the screen shows it: "$41.00 (46%)" of the price; none for a free or negative price. */
export function marginLabel(priceCents: number, costCents: number): string {
  if (priceCents <= 0) return '—';
  const margin = priceCents - costCents;
  return `${formatCents(margin)} (${Math.round((margin / priceCents) * 100)}%)`;
}
