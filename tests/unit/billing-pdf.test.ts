import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { missingGlyphReplacement, renderBillingPdf } from '#server/lib/billing-pdf/index.ts';
import { billingDocumentContent, formatDocumentDate } from '#shared/billing-document-content.ts';
import type { BillingDocument } from '#shared/billing-document.ts';
import { formatCents, formatQuantity, formatTaxRate, maxUnitPriceCents } from '#shared/money.ts';
import { billingDocument, fixtureLines, sampleCreditNote, sampleInvoice, sampleQuote, type FixtureLine } from '#tests/support/billing-document-fixtures.ts';
import { extractPdfText, normaliseSpace, type PdfText } from '#tests/support/pdf-text.ts';

// The billing PDF (issue 20, decision 024-d), read back with PDF.js: what it prints, its fonts and
// its pages. The expected strings are built from the document with the money formatters, and the
// sample invoice's figures are also written out, so a renderer that drops or garbles a figure fails.

function allText(pdf: PdfText): string {
  return pdf.pages.map((page) => page.text).join(' ');
}

function expectPrinted(text: string, expected: string[]): void {
  const missing = expected.map(normaliseSpace).filter((value) => value !== '' && !text.includes(value));
  expect(missing, `not found in the PDF's text:\n${text}`).toEqual([]);
}

/** Everything a document says, taken from the document itself (not from the renderer's content model). */
function documentStrings(document: BillingDocument): string[] {
  return [
    document.number,
    document.statusLabel,
    document.company.name,
    ...document.company.addressLines,
    document.customer.name,
    ...document.customer.addressLines,
    ...(document.serviceAddressLines ?? []),
    ...document.references,
    ...[document.issuedOn, document.dueOn, document.validUntil].filter((date) => date !== undefined).map(formatDocumentDate),
    ...document.lines.flatMap((line) => [
      line.code ?? '',
      line.name,
      line.description ?? '',
      formatQuantity(line.quantityMilli),
      formatCents(line.unitPriceCents),
      line.discountCents ? formatCents(-line.discountCents) : '',
      formatCents(line.amountCents),
    ]),
    formatCents(document.subtotalCents),
    ...document.taxes.flatMap((tax) => [tax.label, formatTaxRate(tax.ratePpm), formatCents(tax.taxableCents), formatCents(tax.taxCents)]),
    formatCents(document.totalCents),
    ...document.payments.flatMap((payment) => [payment.label, formatDocumentDate(payment.receivedOn), formatCents(-payment.amountCents)]),
    ...(document.balanceCents === undefined ? [] : [formatCents(Math.abs(document.balanceCents))]),
    document.notes ?? '',
    document.footer ?? '',
  ];
}

describe('billing document content (the strings the PDF and the web page print)', () => {
  it('formats calendar dates without a time zone shifting the day', () => {
    expect(formatDocumentDate('2026-11-27')).toBe('Nov 27, 2026');
    expect(formatDocumentDate('2027-01-01')).toBe('Jan 1, 2027');
    expect(formatDocumentDate('not a date')).toBe('not a date');
  });

  it('labels an overpaid invoice as a credit and leaves out what a document lacks', () => {
    const overpaid = billingDocument('invoice', fixtureLines(1), { payments: [{ receivedOn: '2026-11-28', label: 'Card', amountCents: 10_000 }] });
    const content = billingDocumentContent(overpaid);
    expect(content.totals.at(-1)).toEqual({ kind: 'balance', label: 'Credit due to you', value: '$11.00' });
    expect(content.totals.map((row) => row.label)).toEqual(['Subtotal', 'Total', 'Paid Nov 28, 2026 · Card', 'Credit due to you']);
    expect(content.dates).toEqual([]);
    expect(content.serviceAddress).toBeUndefined();
    expect(content.lines[0]!.discount).toBe('');
    const quote = billingDocumentContent(sampleQuote());
    expect(quote.totals.map((row) => row.kind)).not.toContain('balance');
    expect(quote.dates.map((date) => date.label)).toEqual(['Date', 'Valid until']);
  });
});

describe('billing PDF: an invoice', () => {
  it('prints every line, tax, total, payment, the balance, the number and the dates', async () => {
    const invoice = sampleInvoice();
    const pdf = await renderBillingPdf(invoice);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const read = await extractPdfText(pdf);
    const text = allText(read);

    expectPrinted(text, documentStrings(invoice));
    // The sample's figures, written out: the money rule's totals as printed.
    expectPrinted(text, [
      'Invoice',
      'INV-000123',
      'Partially paid',
      'Issued Nov 20, 2026',
      'Due Dec 20, 2026',
      'Diagnostic visit',
      'Labor, certified technician',
      '2.75',
      '$343.75',
      'Dual run capacitor 45/5 µF 440 V',
      'Pleated filter 16×25×1 MERV 11',
      '-$4.88',
      'Subtotal $1,411.11',
      'Discounts included -$73.23',
      'SC sales tax (6% on $566.52) $33.99',
      'Beaufort County sales tax (7% on $122.84) $8.60',
      'Total $1,453.70',
      'Paid Nov 21, 2026 · Check #1043 -$250.00',
      'Balance due $1,203.70',
      'Marisol Okafor-Trần',
      'Work order WO-1052',
      'Bill to'.toUpperCase(),
      'Service address'.toUpperCase(),
    ]);
    expect(read.pages.at(-1)!.text).toContain(`Page ${read.pages.length} of ${read.pages.length}`);
    expect(read.info.Title).toBe('Invoice INV-000123');
  });

  it('prints exactly the strings of the shared content model, which the web page renders too', async () => {
    const invoice = sampleInvoice();
    const content = billingDocumentContent(invoice);
    const text = allText(await extractPdfText(await renderBillingPdf(invoice)));
    expectPrinted(text, [
      content.title,
      content.number,
      content.status,
      ...content.dates.flatMap((date) => [date.label, date.value]),
      ...content.lines.flatMap((line) => [line.code, line.name, line.description, line.quantity, line.unitPrice, line.discount, line.amount]),
      ...content.totals.map((row) => `${row.label} ${row.value}`),
    ]);
  });

  it('right-aligns the amounts in one column and lists the lines in order', async () => {
    const invoice = sampleInvoice(6);
    const read = await extractPdfText(await renderBillingPdf(invoice));
    const items = read.pages[0]!.items;
    const nameTops: number[] = [];
    const amountEdges = invoice.lines.map((line) => {
      const name = items.find((item) => normaliseSpace(item.text) === normaliseSpace(line.name));
      expect(name, line.name).toBeDefined();
      nameTops.push(name!.y);
      // The rightmost text on the line's baseline is its amount.
      const amount = items.filter((item) => Math.abs(item.y - name!.y) < 0.5).sort((a, b) => b.x - a.x)[0]!;
      expect(amount.text).toBe(formatCents(line.amountCents));
      return amount.x + amount.width;
    });
    for (const edge of amountEdges) expect(Math.abs(edge - amountEdges[0]!)).toBeLessThan(0.5);
    // PDF y grows upwards: each line sits below the one before.
    for (let index = 1; index < nameTops.length; index += 1) expect(nameTops[index]!).toBeLessThan(nameTops[index - 1]!);
  });
});

describe('billing PDF: a credit note and a quote', () => {
  it('prints a credit note with its own title and the credit balance', async () => {
    const creditNote = sampleCreditNote();
    const text = allText(await extractPdfText(await renderBillingPdf(creditNote)));
    expectPrinted(text, documentStrings(creditNote));
    expectPrinted(text, ['Credit note', 'CN-000004', 'Credit for INV-000118', `Total credit ${formatCents(creditNote.totalCents)}`, `Credit balance ${formatCents(creditNote.balanceCents!)}`, 'Page 1 of 1']);
    expect(text).not.toContain('Balance due');
  });

  it('prints a quote with its validity date and no balance', async () => {
    const quote = sampleQuote();
    const text = allText(await extractPdfText(await renderBillingPdf(quote)));
    expectPrinted(text, documentStrings(quote));
    expectPrinted(text, ['Quote', 'Q-000057', 'Prepared for'.toUpperCase(), 'Valid until Dec 26, 2026', 'Option 2 of 3: Better', `Total ${formatCents(quote.totalCents)}`]);
    expect(text).not.toMatch(/Balance/);
  });
});

describe('billing PDF: the fonts\' shaping memo', () => {
  it('lays a document out the same when its words were shaped for earlier documents', async () => {
    const layout = async (document: BillingDocument) =>
      (await extractPdfText(await renderBillingPdf(document))).pages.map((page) => page.items.map((item) => `${item.text}@${item.x.toFixed(2)},${item.y.toFixed(2)}`));
    const invoice = sampleInvoice(12);
    const first = await layout(invoice);
    await renderBillingPdf(sampleQuote());
    await renderBillingPdf(sampleInvoice(40));
    expect(await layout(invoice)).toEqual(first);
  });
});

describe('billing PDF: the largest figures', () => {
  it('prints the largest amount the money rule allows whole, on one baseline in its column', async () => {
    // 10 units at $10,000,000.00 less 100 % is -$100,000,000.00 of discount: the widest figures.
    const invoice = billingDocument('invoice', [{ code: 'EQUIP-MAX', name: 'Chiller plant', quantityMilli: 10_000, unitPriceCents: maxUnitPriceCents, discountBps: 10_000, taxable: false }, { name: 'Second chiller', quantityMilli: 10_000, unitPriceCents: maxUnitPriceCents, taxable: false }]);
    const read = await extractPdfText(await renderBillingPdf(invoice));
    const texts = read.pages[0]!.items.map((item) => item.text);
    expect(texts).toContain('-$100,000,000.00');
    expect(texts).toContain('$10,000,000.00');
    expect(texts.filter((text) => text === '$100,000,000.00').length).toBeGreaterThanOrEqual(2);
  });
});

describe('billing PDF: fonts', () => {
  it('embeds every font it uses (FontFile2) and uses no standard, unembedded font', async () => {
    const raw = (await renderBillingPdf(sampleInvoice())).toString('latin1');
    const descriptors = [...raw.matchAll(/\/Type \/FontDescriptor[\s\S]*?endobj/g)].map((match) => match[0]);
    expect(descriptors.length).toBeGreaterThanOrEqual(2);
    for (const descriptor of descriptors) expect(descriptor).toMatch(/\/FontFile[23] \d+ 0 R/);
    expect(descriptors.join('\n')).toMatch(/\/FontName \/[A-Z]{6}\+Inter-Regular/);
    // The standard 14 fonts are Type1 without a file: none may appear.
    expect(raw).not.toMatch(/\/Subtype \/Type1/);
    expect(raw).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/);
  });

  it('prints text beyond Latin-1, and a "?" for characters the font lacks, without failing', async () => {
    const invoice = billingDocument('invoice', [
      { name: 'Café ½ ton — ✓', description: 'Dépannage «urgent» · 3 m² · 25 °C → 21 °C', quantityMilli: 1500, unitPriceCents: 10_000, taxable: false },
      { name: 'Ремонт насоса Ωmega 中文 😀', quantityMilli: 1000, unitPriceCents: 500, taxable: false },
      // A combining accent (normalised to "é"), a tab and a zero-width space.
      { name: 'Cafe\u0301\tfilter\u200b', quantityMilli: 1000, unitPriceCents: 100, taxable: false },
    ], { notes: 'Line one\nLine two\r\nLine three' });
    const text = allText(await extractPdfText(await renderBillingPdf(invoice)));
    expectPrinted(text, [
      'Café ½ ton — ✓',
      'Dépannage «urgent» · 3 m² · 25 °C → 21 °C',
      `Ремонт насоса Ωmega ${missingGlyphReplacement.repeat(2)} ${missingGlyphReplacement}`,
      'Café filter',
      'Line one Line two Line three',
      '$150.00',
    ]);
    expect(text).not.toContain('中');
  });
});

describe('billing PDF: pages', () => {
  it('breaks a 60-line invoice over several pages, the header row on each, every line once and in order', async () => {
    const invoice = sampleInvoice(60);
    const read = await extractPdfText(await renderBillingPdf(invoice));
    const count = read.pages.length;
    expect(count).toBeGreaterThan(1);
    read.pages.forEach((page, index) => expect(page.text).toContain(`Page ${index + 1} of ${count}`));
    expect(read.pages[0]!.text).toContain(`Page 1 of ${count}`);

    const names = invoice.lines.map((line) => normaliseSpace(line.name));
    const seen: string[] = [];
    for (const page of read.pages) {
      const onPage = page.items
        .filter((item) => names.includes(normaliseSpace(item.text)))
        .sort((a, b) => b.y - a.y)
        .map((item) => normaliseSpace(item.text));
      if (onPage.length > 0) {
        // The table's header row comes again above the lines of every page.
        const header = page.items.find((item) => item.text === 'UNIT PRICE');
        expect(header, `header row on a page with lines: ${page.text.slice(0, 80)}`).toBeDefined();
        const firstLine = page.items.find((item) => normaliseSpace(item.text) === onPage[0]);
        expect(header!.y).toBeGreaterThan(firstLine!.y);
      }
      if (page !== read.pages[0]) expect(page.text).toContain('Invoice INV-000123');
      seen.push(...onPage);
    }
    expect(seen).toEqual(names);
    expectPrinted(allText(read), [`Total ${formatCents(invoice.totalCents)}`, `Balance due ${formatCents(invoice.balanceCents!)}`]);
  });

  it('keeps a line whose description is longer than a page, cut with an ellipsis, and every line after it', async () => {
    const long = 'Replaced the evaporator coil and recharged the system. '.repeat(150);
    const lines: FixtureLine[] = [...fixtureLines(3), { name: 'Coil replacement', description: long, quantityMilli: 1000, unitPriceCents: 185_000, taxable: false }, ...fixtureLines(2)];
    const invoice = billingDocument('invoice', lines, { notes: 'Unbroken: ' + 'x'.repeat(400) });
    const read = await extractPdfText(await renderBillingPdf(invoice));
    const text = allText(read);
    expectPrinted(text, ['Coil replacement', '$1,850.00', 'Diagnostic visit', formatCents(invoice.totalCents), 'x'.repeat(60)]);
    // The ellipsis (U+2026), which PDF.js reads back as three dots.
    expect(normaliseSpace(text)).toMatch(/system\.(\.\.\.|…) /);
  });
});

describe('billing PDF: every printed amount, for any document', () => {
  const word = fc.constantFrom('Valve', 'Blower', 'Ductwork', 'Señal', 'Ölfilter', 'Coil', 'Thermostat', 'Labor', 'Kit', 'Service', 'µF', '½"');
  const line = fc.record({
    code: fc.option(fc.stringMatching(/^[A-Z]{2,5}-\d{1,4}$/), { nil: undefined }),
    name: fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' ')),
    quantityMilli: fc.integer({ min: 1, max: 250_000 }),
    unitPriceCents: fc.integer({ min: -50_000, max: 2_500_000 }),
    discountBps: fc.constantFrom(0, 0, 500, 1000, 1500),
    taxable: fc.boolean(),
    taxRatePpm: fc.constantFrom(60_000, 70_000, 88_750),
  });
  const documentArbitrary = fc.record({
    kind: fc.constantFrom('invoice' as const, 'credit_note' as const, 'quote' as const),
    lines: fc.array(line, { minLength: 1, maxLength: 25 }),
    paid: fc.array(fc.integer({ min: -20_000, max: 300_000 }), { maxLength: 3 }),
  });

  it('prints each line amount, each tax, the total and the balance', async () => {
    await fc.assert(
      fc.asyncProperty(documentArbitrary, async ({ kind, lines, paid }) => {
        // A discount only applies to a positive price (the money rule refuses others).
        const priced = lines.map((candidate) => (candidate.unitPriceCents > 0 ? candidate : { ...candidate, discountBps: 0 }));
        const document = billingDocument(kind, priced, {
          issuedOn: '2026-11-27',
          payments: kind === 'quote' ? [] : paid.map((amountCents, index) => ({ receivedOn: '2026-11-28', label: `Payment ${index + 1}`, amountCents })),
        });
        const text = allText(await extractPdfText(await renderBillingPdf(document)));
        expectPrinted(text, documentStrings(document));
      }),
      { numRuns: 12 },
    );
  });
});
