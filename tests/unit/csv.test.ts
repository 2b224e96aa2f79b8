import { describe, expect, it } from 'vitest';
import { csvByteOrderMark, csvChunks, csvField, CsvNumberText, CsvParseError, csvRecord, keysetPages, neutraliseFormula, parseCsv, unneutraliseFormula } from '#server/lib/csv.ts';

describe('csvField: RFC 4180 quoting', () => {
  it('leaves plain text, numbers and empty values as they are', () => {
    expect(csvField('Bluffton')).toBe('Bluffton');
    expect(csvField('two words')).toBe('two words');
    expect(csvField(42)).toBe('42');
    expect(csvField(3.5)).toBe('3.5');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField('')).toBe('');
  });

  it('quotes a field with a comma, a quote, CR or LF, doubling its quotes', () => {
    expect(csvField('27 Calhoun Street, Bluffton')).toBe('"27 Calhoun Street, Bluffton"');
    expect(csvField('the "big" unit')).toBe('"the ""big"" unit"');
    expect(csvField('"')).toBe('""""');
    expect(csvField('line one\nline two')).toBe('"line one\nline two"');
    expect(csvField('line one\r\nline two')).toBe('"line one\r\nline two"');
    expect(csvField('a\rb')).toBe('"a\rb"');
  });

  it('keeps non-ASCII text as it is (the file is UTF-8)', () => {
    expect(csvField('José Núñez — 北京')).toBe('José Núñez — 北京');
  });

  it('writes dates as ISO 8601 UTC', () => {
    expect(csvField(new Date('2026-03-01T12:30:00Z'))).toBe('2026-03-01T12:30:00.000Z');
  });
});

describe('formula-injection neutralisation (OWASP CSV Injection)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+15551234', "'+15551234"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=cmd', "'\t=cmd"],
    ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
  ])('text %j becomes %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('quotes a neutralised value that starts with CR', () => {
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
  });

  it('leaves the characters alone anywhere but the start, and numbers (a negative number is data)', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('x@example.com')).toBe('x@example.com');
    expect(csvField(' =1')).toBe(' =1');
    expect(csvField(-5)).toBe('-5');
    expect(neutraliseFormula('plain')).toBe('plain');
  });

  it('writes a number given as text (dollars with two decimals) as it is, and refuses anything but a plain decimal', () => {
    expect(csvField(new CsvNumberText('-25.00'))).toBe('-25.00');
    expect(csvField(new CsvNumberText('1.5'))).toBe('1.5');
    expect(csvField('-25.00')).toBe("'-25.00");
    for (const text of ['-2+3', '=1', '1,000.00', '1e5', '', ' 1', '-', '.5']) expect(() => new CsvNumberText(text), text).toThrow(RangeError);
  });
});

describe('records and files', () => {
  it('ends each record with CRLF', () => {
    expect(csvRecord(['a', 'b,c', null, 7])).toBe('a,"b,c",,7\r\n');
  });

  it('starts the file with the byte-order mark and the header, then one chunk per non-empty page', async () => {
    async function* pages() {
      yield [['1', 'one']];
      yield [];
      yield [['2', '=two'], ['3', 'three, four']];
    }
    const chunks: string[] = [];
    for await (const chunk of csvChunks(['ID', 'Name'], pages())) chunks.push(chunk);
    expect(chunks).toEqual([`${csvByteOrderMark}ID,Name\r\n`, '1,one\r\n', `2,'=two\r\n3,"three, four"\r\n`]);
  });
});

describe('keysetPages', () => {
  it('reads after the last row of each page until a short page', async () => {
    const all = Array.from({ length: 7 }, (_, index) => index + 1);
    const calls: (number | undefined)[] = [];
    const pages: number[][] = [];
    for await (const page of keysetPages<number>(async (after, limit) => {
      calls.push(after);
      return all.filter((value) => value > (after ?? 0)).slice(0, limit);
    }, 3)) {
      pages.push(page);
    }
    expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(calls).toEqual([undefined, 3, 6]);
  });

  it('stops after an empty page when the rows divide evenly', async () => {
    const calls: (number | undefined)[] = [];
    const pages: number[][] = [];
    for await (const page of keysetPages<number>(async (after) => {
      calls.push(after);
      return after === undefined ? [1, 2] : after === 2 ? [3, 4] : [];
    }, 2)) {
      pages.push(page);
    }
    expect(pages).toEqual([[1, 2], [3, 4]]);
    expect(calls).toEqual([undefined, 2, 4]);
  });
});

describe('parseCsv: what spreadsheets save, with line numbers', () => {
  it('drops the byte-order mark and reads CRLF, LF and CR record ends, skipping blank lines', () => {
    expect(parseCsv(`${csvByteOrderMark}code,name\r\nA,One\r\n\r\nB,Two\nC,Three\rD,Four`)).toEqual([
      { line: 1, fields: ['code', 'name'] },
      { line: 2, fields: ['A', 'One'] },
      { line: 4, fields: ['B', 'Two'] },
      { line: 5, fields: ['C', 'Three'] },
      { line: 6, fields: ['D', 'Four'] },
    ]);
  });

  it('reads quoted commas, doubled quotes and line breaks; a record that spans lines starts on its first, the next counts on', () => {
    const text = 'code,description\r\nA,"Filter, 1 in ""MERV 8"""\r\nB,"line one\r\nline two"\r\nC,,\r\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['code', 'description'] },
      { line: 2, fields: ['A', 'Filter, 1 in "MERV 8"'] },
      { line: 3, fields: ['B', 'line one\r\nline two'] },
      { line: 5, fields: ['C', '', ''] },
    ]);
  });

  it('reads back what csvRecord writes, neutralised formulas included once the apostrophe is undone', () => {
    const values = ['=HYPERLINK("x")', 'a, b', 'say "hi"', 'two\nlines', '-25.00', 'plain'];
    const [record] = parseCsv(csvRecord(values));
    expect(record!.fields.map(unneutraliseFormula)).toEqual(values);
    expect(unneutraliseFormula("'plain")).toBe("'plain");
  });

  it('refuses an unclosed quote, naming the line where its field began', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(CsvParseError);
    try {
      parseCsv('a,b\n1,"open\n2,3\n');
    } catch (error) {
      expect((error as CsvParseError).line).toBe(2);
    }
  });
});
