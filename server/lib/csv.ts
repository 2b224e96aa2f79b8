/**
 * CSV as RFC 4180 writes it, for spreadsheets: fields separated by commas, records ended by CRLF,
 * a field quoted (its quotes doubled) when it holds a comma, a quote, CR or LF. The file starts
 * with a UTF-8 byte-order mark, without which Excel reads UTF-8 as the Windows code page.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with = + - @
 * (or a tab or CR, which some strip before looking) as a formula. Every text value that starts
 * with one of them gets a leading apostrophe, which spreadsheets show as text. Numbers are written
 * as they are (a negative number is data, not a formula); only strings come from people.
 */
export const csvByteOrderMark = '\uFEFF';
export const csvLineEnd = '\r\n';

/**
 * A number already written as text, for a fixed number of decimals ("-25.00", "1.5"): written as
 * it is, like a number (never neutralised: a plain decimal is data, not a formula). Anything but
 * a plain decimal is refused when it is made.
 */
export class CsvNumberText {
  constructor(readonly text: string) {
    if (!/^-?\d+(?:\.\d+)?$/.test(text)) throw new RangeError(`Not a plain decimal number: ${JSON.stringify(text)}`);
  }
}

export type CsvValue = string | number | boolean | bigint | Date | CsvNumberText | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** A text value a spreadsheet would run as a formula, made plain text. */
export function neutraliseFormula(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

/** One field, neutralised when it is text, quoted when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = neutraliseFormula(value);
  else if (value instanceof Date) text = value.toISOString();
  else if (value instanceof CsvNumberText) text = value.text;
  else text = String(value);
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(values: readonly CsvValue[]): string {
  return values.map(csvField).join(',') + csvLineEnd;
}

/**
 * The whole file as chunks: the byte-order mark and the header, then one chunk per page of
 * records. A consumer that pulls (Readable.from) asks for the next page only when the client has
 * taken the previous one, so at most one page is in memory whatever the table's size.
 */
export async function* csvChunks(header: readonly string[], pages: AsyncIterable<readonly (readonly CsvValue[])[]>): AsyncGenerator<string> {
  yield csvByteOrderMark + csvRecord(header);
  for await (const page of pages) {
    if (page.length > 0) yield page.map(csvRecord).join('');
  }
}

/**
 * Keyset paging: reads `pageSize` rows after the last one seen until a short page, so each query
 * is an index range scan and no offset grows with the table.
 */
export async function* keysetPages<Row>(readPage: (after: Row | undefined, limit: number) => Promise<Row[]>, pageSize: number): AsyncGenerator<Row[]> {
  let after: Row | undefined;
  for (;;) {
    const rows = await readPage(after, pageSize);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1];
  }
}

/** A parsed CSV record with the file's line number it starts on (1-based, counting the header). */
export type CsvParsedRecord = { line: number; fields: string[] };

export class CsvParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads CSV text as RFC 4180 writes it (and as spreadsheets save it): a leading byte-order mark is
 * dropped, records end with CRLF, LF or CR, a quoted field may hold commas, doubled quotes and line
 * breaks. Blank lines are skipped. Each record carries the line it starts on, so errors can name it.
 * An unclosed quote is a CsvParseError naming the line where its field began.
 */
export function parseCsv(text: string): CsvParsedRecord[] {
  const source = text.startsWith(csvByteOrderMark) ? text.slice(1) : text;
  const records: CsvParsedRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let fieldStarted = false;
  let index = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '' && !fieldStarted)) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    fieldStarted = false;
  };
  while (index < source.length) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"') {
        if (source[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
        index += 1;
        continue;
      }
      if (char === '\n' || (char === '\r' && source[index + 1] !== '\n')) line += 1;
      field += char;
      index += 1;
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
      fieldStarted = true;
      index += 1;
      continue;
    }
    if (char === ',') {
      fields.push(field);
      field = '';
      fieldStarted = true;
      index += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      endRecord();
      index += char === '\r' && source[index + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    field += char;
    fieldStarted = true;
    index += 1;
  }
  if (quoted) throw new CsvParseError(recordLine, 'A quoted field is not closed.');
  if (field !== '' || fields.length > 0 || fieldStarted) endRecord();
  return records;
}

/**
 * The text a cell holds once an export's formula neutralisation is undone: an apostrophe that
 * `neutraliseFormula` put before = + - @ (or a tab or CR) is dropped, so an exported file imports back
 * to the same values. Nothing else is changed; the value is stored as text and never evaluated.
 */
export function unneutraliseFormula(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}
