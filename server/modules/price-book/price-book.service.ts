import type { z } from 'zod';
import type { PriceBookItemKind } from '#shared/enums.ts';
import {
  centsToCsvDollars,
  parseCsvBoolean,
  parseCsvDollars,
  priceBookCsvColumns,
  priceBookCsvRequiredColumns,
  priceBookImportLimits,
  priceBookItemFieldsSchema,
  priceBookMessages,
  type PriceBookCsvColumn,
  type PriceBookImportError,
  type PriceBookImportResult,
  type PriceBookItem,
  type PriceBookItemResponse,
  type PriceBookListQuery,
  type PriceBookListResponse,
  type priceBookItemCreateSchema,
  type priceBookItemStatusSchema,
  type priceBookItemUpdateSchema,
} from '#shared/price-book.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { csvChunks, CsvParseError, parseCsv, unneutraliseFormula, type CsvValue } from '#server/lib/csv.ts';
import { diffFields, hasChanges, recordAudit, recordAudits, type AuditActor } from '#server/modules/audit/index.ts';
import { createPriceBookRepository, type PriceBookRow, type PriceBookValues } from './price-book.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

const notFound = () => new AppError('NOT_FOUND', priceBookMessages.notFound);
const auditedFields = ['kind', 'code', 'name', 'description', 'category', 'unit', 'priceCents', 'costCents', 'taxable', 'active'] as const;

/** Labor and services are not taxed by default, parts and equipment are (decision 024-f: the accountant confirms). */
export function defaultTaxable(kind: PriceBookItemKind): boolean {
  return kind === 'part' || kind === 'equipment';
}

function isCodeTaken(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { code, constraint } = cause as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || constraint === 'price_book_items_code_key');
}

const codeTaken = (code: string) => new AppError('CONFLICT', priceBookMessages.codeTaken(code), [{ path: 'code', message: priceBookMessages.codeTaken(code) }]);

export function toPriceBookItem(row: PriceBookRow): PriceBookItem {
  return {
    id: row.id,
    kind: row.kind as PriceBookItemKind,
    code: row.code,
    name: row.name,
    description: row.description,
    category: row.category,
    unit: row.unit,
    priceCents: row.priceCents,
    costCents: row.costCents,
    taxable: row.taxable,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const labelOf = (row: Pick<PriceBookRow, 'code' | 'name'>) => `${row.code} · ${row.name}`;

function actionOf(changes: Record<string, unknown>): string {
  const fields = Object.keys(changes);
  if (fields.length === 1 && fields[0] === 'active') return (changes.active as [boolean, boolean])[1] ? 'activated' : 'deactivated';
  return 'updated';
}

/** The export's record of one item: money as dollars ("89.00"), flags as yes/no. */
export function priceBookCsvRecord(row: PriceBookRow): CsvValue[] {
  const byColumn: Record<PriceBookCsvColumn, CsvValue> = {
    code: row.code,
    name: row.name,
    kind: row.kind,
    category: row.category,
    unit: row.unit,
    price: centsToCsvDollars(row.priceCents),
    cost: centsToCsvDollars(row.costCents),
    taxable: row.taxable ? 'yes' : 'no',
    active: row.active ? 'yes' : 'no',
    description: row.description,
  };
  return priceBookCsvColumns.map((column) => byColumn[column]);
}

/** Schema field -> CSV column, for errors. */
const columnOfField: Record<string, PriceBookCsvColumn> = { priceCents: 'price', costCents: 'cost' };

type ParsedRow = { line: number; code: string; values: Partial<PriceBookValues> };

/** Decodes the upload: UTF-8 text, no NUL bytes (a spreadsheet's binary .xlsx, an image...). */
function decodeCsvText(bytes: Buffer): string {
  if (bytes.includes(0)) throw new AppError('VALIDATION_FAILED', priceBookMessages.notText);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('VALIDATION_FAILED', priceBookMessages.notText);
  }
}

/**
 * Reads and checks every row of an import file; nothing touches the database. Columns absent from
 * the file keep an existing item's value (a file of code and price updates only prices).
 */
export function readImportFile(bytes: Buffer): { rows: ParsedRow[]; errors: PriceBookImportError[]; columns: Set<PriceBookCsvColumn>; records: number } {
  const text = decodeCsvText(bytes);
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvParseError) return { rows: [], errors: [{ line: error.line, column: null, message: priceBookMessages.unclosedQuote }], columns: new Set(), records: 0 };
    throw error;
  }
  const [header, ...body] = records;
  if (!header || body.length === 0) throw new AppError('VALIDATION_FAILED', priceBookMessages.empty);
  if (body.length > priceBookImportLimits.maxRows) throw new AppError('VALIDATION_FAILED', priceBookMessages.tooManyRows);

  const errors: PriceBookImportError[] = [];
  const names = header.fields.map((name) => name.trim().toLowerCase());
  const columns = new Set<PriceBookCsvColumn>();
  names.forEach((name) => {
    if ((priceBookCsvColumns as readonly string[]).includes(name)) columns.add(name as PriceBookCsvColumn);
    else if (name !== '') errors.push({ line: header.line, column: name, message: priceBookMessages.headerUnknown(name) });
  });
  const missing = priceBookCsvRequiredColumns.filter((column) => !columns.has(column));
  if (missing.length > 0) errors.push({ line: header.line, column: null, message: priceBookMessages.headerMissing(missing) });
  if (errors.length > 0) return { rows: [], errors, columns, records: body.length };

  const rows: ParsedRow[] = [];
  const firstLineOfCode = new Map<string, number>();
  for (const record of body) {
    const cell = (column: PriceBookCsvColumn): string | undefined => {
      const index = names.indexOf(column);
      return index < 0 ? undefined : unneutraliseFormula(record.fields[index] ?? '');
    };
    const rowErrors: PriceBookImportError[] = [];
    const fail = (column: PriceBookCsvColumn, message: string) => rowErrors.push({ line: record.line, column, message });
    if (record.fields.length > names.length && record.fields.slice(names.length).some((value) => value.trim() !== '')) {
      rowErrors.push({ line: record.line, column: null, message: `This row has ${record.fields.length} fields; the header has ${names.length}.` });
    }

    const money = (column: 'price' | 'cost', message: string): number | undefined => {
      const raw = cell(column);
      if (raw === undefined) return undefined;
      if (column === 'cost' && raw.trim() === '') return 0;
      const cents = parseCsvDollars(raw);
      if (cents === undefined) fail(column, message);
      return cents;
    };
    const flag = (column: 'taxable' | 'active'): boolean | undefined => {
      const raw = cell(column);
      if (raw === undefined || raw.trim() === '') return undefined;
      const value = parseCsvBoolean(raw);
      if (value === undefined) fail(column, priceBookMessages.booleanInvalid);
      return value;
    };
    const kind = cell('kind')?.trim().toLowerCase();
    const candidate = {
      kind,
      code: cell('code'),
      name: cell('name'),
      description: cell('description'),
      category: cell('category'),
      unit: cell('unit')?.trim() === '' ? undefined : cell('unit'),
      priceCents: money('price', priceBookMessages.priceInvalid),
      costCents: money('cost', priceBookMessages.costInvalid),
      taxable: flag('taxable'),
      active: flag('active'),
    };
    const parsed = priceBookItemFieldsSchema.safeParse({
      ...candidate,
      // Defaults for the schema's check only; which of them is written is decided per row below.
      priceCents: candidate.priceCents ?? 0,
      taxable: candidate.taxable ?? true,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        const column = columnOfField[field] ?? (field as PriceBookCsvColumn);
        // A money cell already reported as unreadable is not reported twice.
        if (rowErrors.some((error) => error.column === column)) continue;
        fail(column, issue.message);
      }
    }
    const code = (candidate.code ?? '').trim();
    if (code) {
      const seen = firstLineOfCode.get(code.toLowerCase());
      if (seen !== undefined) rowErrors.push({ line: record.line, column: 'code', message: priceBookMessages.duplicateInFile(code, seen) });
      else firstLineOfCode.set(code.toLowerCase(), record.line);
    }
    if (rowErrors.length > 0 || !parsed.success) {
      errors.push(...rowErrors);
      continue;
    }
    const values: Partial<PriceBookValues> = {};
    for (const field of auditedFields) {
      const column = columnOfField[field] ?? field;
      if (columns.has(column as PriceBookCsvColumn) && (field !== 'taxable' || candidate.taxable !== undefined) && (field !== 'active' || candidate.active !== undefined)) {
        (values as Record<string, unknown>)[field] = parsed.data[field];
      }
    }
    values.code = parsed.data.code;
    rows.push({ line: record.line, code: parsed.data.code, values });
  }
  return { rows, errors, columns, records: body.length };
}

/** A new item from an import row: the columns the file lacks get the form's defaults. */
function newItemValues(values: Partial<PriceBookValues>): PriceBookValues {
  const kind = values.kind!;
  return {
    kind,
    code: values.code!,
    name: values.name!,
    description: values.description ?? '',
    category: values.category ?? '',
    unit: values.unit ?? 'each',
    priceCents: values.priceCents!,
    costCents: values.costCents ?? 0,
    taxable: values.taxable ?? defaultTaxable(kind as PriceBookItemKind),
    active: values.active ?? true,
  };
}

const previewRows = 50;

/**
 * The price book (issue 20, decision 024-f). Every change is audited in its transaction; codes are
 * unique ignoring case (the database's unique index decides, so two admins cannot race past it).
 */
export function createPriceBookService(options: { db: Database }) {
  const { db } = options;
  const repository = createPriceBookRepository(db);

  async function lockForChange(tx: Database, id: string, expectedUpdatedAt: string | undefined): Promise<PriceBookRow> {
    if (!isUuid(id)) throw notFound();
    const before = await createPriceBookRepository(tx).lockById(id.toLowerCase());
    if (!before) throw notFound();
    if (expectedUpdatedAt !== undefined && before.updatedAt.getTime() !== new Date(expectedUpdatedAt).getTime()) {
      throw new AppError('CONFLICT', priceBookMessages.stale, { current: toPriceBookItem(before) });
    }
    return before;
  }

  return {
    async list(query: PriceBookListQuery): Promise<PriceBookListResponse> {
      const [{ rows, total }, categories] = await Promise.all([repository.list(query), repository.categories()]);
      return { items: rows.map(toPriceBookItem), total, page: query.page, pageSize: query.pageSize, categories };
    },

    async get(id: string): Promise<PriceBookItemResponse> {
      if (!isUuid(id)) throw notFound();
      const row = await repository.findById(id.toLowerCase());
      if (!row) throw notFound();
      return { item: toPriceBookItem(row), inUse: await repository.inUse(row.id) };
    },

    /** The quote and invoice line pickers' lookup: the items with these ids (unknown ids are left out). */
    async findByIds(ids: readonly string[]): Promise<PriceBookItem[]> {
      const valid = ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase());
      return (await repository.findByIds(valid)).map(toPriceBookItem);
    },

    async create(values: z.output<typeof priceBookItemCreateSchema>, actor: AuditActor): Promise<PriceBookItem> {
      try {
        return await withTransaction(db, async (tx) => {
          const row = await createPriceBookRepository(tx).insert(values);
          await recordAudit(tx, {
            actor,
            entityType: 'price_book_item',
            entityId: row.id,
            entityLabel: labelOf(row),
            action: 'created',
            changes: diffFields(undefined, row, { only: [...auditedFields] }),
          });
          return toPriceBookItem(row);
        });
      } catch (error) {
        if (isCodeTaken(error)) throw codeTaken(values.code);
        throw error;
      }
    },

    async update(id: string, body: z.output<typeof priceBookItemUpdateSchema>, actor: AuditActor): Promise<PriceBookItem> {
      const { expectedUpdatedAt, ...values } = body;
      try {
        return await withTransaction(db, async (tx) => {
          const before = await lockForChange(tx, id, expectedUpdatedAt);
          const changes = diffFields(before, { ...before, ...values }, { only: [...auditedFields] });
          if (!hasChanges(changes)) return toPriceBookItem(before);
          const row = (await createPriceBookRepository(tx).update(before.id, values))!;
          await recordAudit(tx, { actor, entityType: 'price_book_item', entityId: row.id, entityLabel: labelOf(row), action: actionOf(changes), changes });
          return toPriceBookItem(row);
        });
      } catch (error) {
        if (isCodeTaken(error)) throw codeTaken(values.code);
        throw error;
      }
    },

    async setActive(id: string, body: z.output<typeof priceBookItemStatusSchema>, actor: AuditActor): Promise<PriceBookItem> {
      return withTransaction(db, async (tx) => {
        const before = await lockForChange(tx, id, body.expectedUpdatedAt);
        if (before.active === body.active) return toPriceBookItem(before);
        const row = (await createPriceBookRepository(tx).update(before.id, { active: body.active }))!;
        await recordAudit(tx, {
          actor,
          entityType: 'price_book_item',
          entityId: row.id,
          entityLabel: labelOf(row),
          action: body.active ? 'activated' : 'deactivated',
          changes: { active: [before.active, row.active] },
        });
        return toPriceBookItem(row);
      });
    },

    /** Only an item no quote or invoice line came from; others are deactivated instead (409). */
    async remove(id: string, actor: AuditActor): Promise<void> {
      await withTransaction(db, async (tx) => {
        const before = await lockForChange(tx, id, undefined);
        const items = createPriceBookRepository(tx);
        if (await items.inUse(before.id)) throw new AppError('CONFLICT', priceBookMessages.inUse);
        await items.remove(before.id);
        await recordAudit(tx, {
          actor,
          entityType: 'price_book_item',
          entityId: before.id,
          entityLabel: labelOf(before),
          action: 'deleted',
          changes: diffFields(before, undefined, { only: [...auditedFields] }),
        });
      });
    },

    /** The CSV export of every item the filter keeps (paging ignored): thousands of rows at most, so one string. */
    async exportCsv(query: PriceBookListQuery): Promise<string> {
      const rows = await repository.listAll(query);
      async function* pages() {
        for (let start = 0; start < rows.length; start += 500) yield rows.slice(start, start + 500).map(priceBookCsvRecord);
      }
      let text = '';
      for await (const chunk of csvChunks(priceBookCsvColumns, pages())) text += chunk;
      return text;
    },

    /**
     * Checks a CSV file row by row and, unless a dry run, writes it in one transaction: rows whose
     * code (any case) exists update that item, others are new. One error anywhere and nothing is
     * written (a 400 whose details are this result).
     */
    async importCsv(bytes: Buffer, dryRun: boolean, actor: AuditActor): Promise<PriceBookImportResult> {
      const { rows, errors, records } = readImportFile(bytes);
      const work = async (tx: Database): Promise<PriceBookImportResult> => {
        const items = createPriceBookRepository(tx);
        const existing = new Map((await items.lockByCodes(rows.map((row) => row.code))).map((row) => [row.code.toLowerCase(), row]));
        const creates: { line: number; values: PriceBookValues }[] = [];
        const updates: { line: number; before: PriceBookRow; values: Partial<PriceBookValues> }[] = [];
        const preview: PriceBookImportResult['preview'] = [];
        let unchanged = 0;
        for (const row of rows) {
          const before = existing.get(row.code.toLowerCase());
          if (!before) {
            const values = newItemValues(row.values);
            creates.push({ line: row.line, values });
            preview.push({ line: row.line, action: 'create', code: values.code, name: values.name, priceCents: values.priceCents });
            continue;
          }
          const changed = hasChanges(diffFields(before, { ...before, ...row.values }, { only: [...auditedFields] }));
          if (changed) updates.push({ line: row.line, before, values: row.values });
          else unchanged += 1;
          preview.push({
            line: row.line,
            action: changed ? 'update' : 'unchanged',
            code: row.values.code ?? before.code,
            name: row.values.name ?? before.name,
            priceCents: row.values.priceCents ?? before.priceCents,
          });
        }
        const result: PriceBookImportResult = {
          dryRun,
          imported: false,
          rows: records,
          created: creates.length,
          updated: updates.length,
          unchanged,
          errors,
          preview: preview.slice(0, previewRows),
        };
        if (dryRun || errors.length > 0) return result;

        const audits: Parameters<typeof recordAudits>[1] = [];
        for (let start = 0; start < creates.length; start += 500) {
          const inserted = await items.insertMany(creates.slice(start, start + 500).map((create) => create.values));
          for (const row of inserted) {
            audits.push({
              actor,
              entityType: 'price_book_item',
              entityId: row.id,
              entityLabel: labelOf(row),
              action: 'imported',
              changes: diffFields(undefined, row, { only: [...auditedFields] }),
            });
          }
        }
        for (const update of updates) {
          const row = (await items.update(update.before.id, update.values))!;
          audits.push({
            actor,
            entityType: 'price_book_item',
            entityId: row.id,
            entityLabel: labelOf(row),
            action: 'imported',
            changes: diffFields(update.before, row, { only: [...auditedFields] }),
          });
        }
        for (let start = 0; start < audits.length; start += 500) await recordAudits(tx, audits.slice(start, start + 500));
        return { ...result, imported: true };
      };
      const result = dryRun || errors.length > 0 ? await work(db) : await withTransaction(db, work).catch((error: unknown) => {
        if (isCodeTaken(error)) throw new AppError('CONFLICT', priceBookMessages.codeTaken('in this file'));
        throw error;
      });
      if (!dryRun && errors.length > 0) throw new AppError('VALIDATION_FAILED', priceBookMessages.importFailed(errors.length), result);
      return result;
    },
  };
}

export type PriceBookService = ReturnType<typeof createPriceBookService>;
