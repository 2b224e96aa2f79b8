import type PDFKitDocument from 'pdfkit';
import type { BillingDocument } from '#shared/billing-document.ts';
import { billingDocumentContent, type BillingContentLine, type BillingContentTotal, type BillingDocumentContent } from '#shared/billing-document-content.ts';
import { loadBillingFonts, printableText, type FontName } from './fonts.ts';

// The PDF of an invoice, credit note or quote (issue 20, decision 024-d): US Letter, Inter embedded,
// the words and figures of billingDocumentContent laid out as the company's letterhead. pdfkit is
// loaded with the first PDF, not when the server starts (decision 023-b).

type Pdf = PDFKit.PDFDocument;

let loadingPdfkit: Promise<typeof PDFKitDocument> | undefined;

function loadPdfkit(): Promise<typeof PDFKitDocument> {
  loadingPdfkit ??= import('pdfkit').then((module) => module.default);
  return loadingPdfkit;
}

// Geometry, in points (1/72 in). US Letter is 612 x 792.
const page = { width: 612, height: 792, margin: 48, footerTop: 792 - 40 };
/** Nothing but the page footer goes below this. */
const contentBottom = page.footerTop - 16;
const contentWidth = page.width - 2 * page.margin;
const left = page.margin;
const right = page.width - page.margin;

const colour = {
  ink: '#0f172a',
  text: '#334155',
  muted: '#64748b',
  rule: '#e2e8f0',
  band: '#f1f5f9',
  brand: '#1e3a8a',
  brandTint: '#eff6ff',
};

const statusColours: Record<string, { fill: string; text: string }> = {
  paid: { fill: '#dcfce7', text: '#166534' },
  approved: { fill: '#dcfce7', text: '#166534' },
  accepted: { fill: '#dcfce7', text: '#166534' },
  void: { fill: '#fee2e2', text: '#991b1b' },
  declined: { fill: '#fee2e2', text: '#991b1b' },
  expired: { fill: '#fee2e2', text: '#991b1b' },
  overdue: { fill: '#ffedd5', text: '#9a3412' },
  draft: { fill: '#f1f5f9', text: '#475569' },
};

/** The lines table: code, item (name and description), quantity, unit price, discount, amount. */
const columnWidths = { code: 74, quantity: 42, unitPrice: 70, discount: 62, amount: 76 };
const itemWidth = contentWidth - Object.values(columnWidths).reduce((sum, width) => sum + width, 0);
const cellPadding = 6;
const columns = (() => {
  let x = left;
  const at = (width: number) => {
    const column = { x, width };
    x += width;
    return column;
  };
  return {
    code: at(columnWidths.code),
    item: at(itemWidth),
    quantity: at(columnWidths.quantity),
    unitPrice: at(columnWidths.unitPrice),
    discount: at(columnWidths.discount),
    amount: at(columnWidths.amount),
  };
})();

type Writer = {
  doc: Pdf;
  text: (value: string) => string;
  paragraph: (value: string) => string;
};

function font(doc: Pdf, name: FontName, size: number, fill: string): Pdf {
  return doc.font(name).fontSize(size).fillColor(fill);
}

/**
 * A figure is never wrapped or cut: one wider than its column (-$100,000,000.00 is the largest the
 * money rule allows) is set smaller until it fits, on the same baseline.
 */
function fitToWidth(doc: Pdf, value: string, width: number, size: number): void {
  const natural = doc.fontSize(size).widthOfString(value);
  if (natural > width) doc.fontSize(Math.floor((size * width * 10) / natural) / 10);
}

/** Writes one block of text at (x, y) within `width`; returns its height. */
function block(doc: Pdf, value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions): number {
  if (value === '') return 0;
  const height = doc.heightOfString(value, options);
  doc.text(value, x, y, options);
  return height;
}

function drawHeader(writer: Writer, content: BillingDocumentContent): number {
  const { doc, text } = writer;
  // Company, on the left.
  const companyWidth = 290;
  let leftY = page.margin;
  font(doc, 'bold', 15, colour.ink);
  leftY += block(doc, text(content.company.name), left, leftY, { width: companyWidth });
  leftY += 4;
  font(doc, 'regular', 8.5, colour.muted);
  for (const line of content.company.lines) leftY += block(doc, text(line), left, leftY, { width: companyWidth, lineGap: 1 });

  // Title, number, status and dates, on the right.
  const boxWidth = 210;
  const boxX = right - boxWidth;
  let rightY = page.margin - 4;
  font(doc, 'semibold', 24, colour.brand);
  rightY += block(doc, text(content.title), boxX, rightY, { width: boxWidth, align: 'right' });
  font(doc, 'semibold', 11, colour.ink);
  rightY += block(doc, text(content.number), boxX, rightY, { width: boxWidth, align: 'right' }) + 6;

  const status = text(content.status);
  const tone = statusColours[content.status.trim().toLowerCase()] ?? { fill: colour.brandTint, text: colour.brand };
  font(doc, 'semibold', 8, tone.text);
  const statusWidth = Math.min(boxWidth, doc.widthOfString(status) + 16);
  doc.roundedRect(right - statusWidth, rightY, statusWidth, 16, 8).fill(tone.fill);
  font(doc, 'semibold', 8, tone.text);
  doc.text(status, right - statusWidth, rightY + 4.5, { width: statusWidth, align: 'center', lineBreak: false, height: 10, ellipsis: true });
  rightY += 16 + 10;

  for (const { label, value } of content.dates) {
    font(doc, 'regular', 9, colour.muted);
    doc.text(text(label), boxX, rightY, { width: boxWidth - 100, align: 'right', lineBreak: false });
    font(doc, 'semibold', 9, colour.ink);
    doc.text(text(value), right - 92, rightY, { width: 92, align: 'right', lineBreak: false });
    rightY += 14;
  }
  return Math.max(leftY, rightY);
}

/** Bill to, service address and references side by side; returns the y below them. */
function drawParties(writer: Writer, content: BillingDocumentContent, top: number): number {
  const { doc, text } = writer;
  doc.moveTo(left, top).lineTo(right, top).lineWidth(0.75).strokeColor(colour.rule).stroke();
  const blocks: { label: string; name?: string; lines: string[] }[] = [{ label: content.billTo.label, name: content.billTo.name, lines: content.billTo.lines }];
  if (content.serviceAddress) blocks.push({ label: content.serviceAddress.label, lines: content.serviceAddress.lines });
  if (content.references.length) blocks.push({ label: 'References', lines: content.references });
  const gap = 16;
  const width = (contentWidth - gap * 2) / 3;
  let bottom = top;
  blocks.forEach((part, index) => {
    const x = left + index * (width + gap);
    let y = top + 14;
    font(doc, 'semibold', 7.5, colour.muted);
    y += block(doc, text(part.label.toUpperCase()), x, y, { width, characterSpacing: 0.6 }) + 3;
    if (part.name !== undefined) {
      font(doc, 'semibold', 10, colour.ink);
      y += block(doc, text(part.name), x, y, { width }) + 1;
    }
    font(doc, 'regular', 9, colour.text);
    for (const line of part.lines) y += block(doc, text(line), x, y, { width, lineGap: 1 });
    bottom = Math.max(bottom, y);
  });
  return bottom;
}

const headerRowHeight = 20;

function drawTableHeader(writer: Writer, content: BillingDocumentContent, top: number): number {
  const { doc, text } = writer;
  doc.rect(left, top, contentWidth, headerRowHeight).fill(colour.band);
  font(doc, 'semibold', 7.5, colour.muted);
  const headings = content.lineHeadings;
  const cells: [keyof typeof columns, string, 'left' | 'right'][] = [
    ['code', headings.code, 'left'],
    ['item', headings.item, 'left'],
    ['quantity', headings.quantity, 'right'],
    ['unitPrice', headings.unitPrice, 'right'],
    ['discount', headings.discount, 'right'],
    ['amount', headings.amount, 'right'],
  ];
  for (const [key, heading, align] of cells) {
    const column = columns[key];
    doc.text(text(heading.toUpperCase()), column.x + cellPadding, top + 7, { width: column.width - 2 * cellPadding, align, lineBreak: false, characterSpacing: 0.5 });
  }
  return top + headerRowHeight;
}

const rowPadding = 6;
/** A row taller than this (a very long description) is cut with an ellipsis: it must fit on a page under the table header. */
const maxRowHeight = contentBottom - page.margin - 30 - headerRowHeight;

type RowText = { code: string; name: string; description: string; numbers: [keyof typeof columns, string][] };

function rowText(writer: Writer, line: BillingContentLine): RowText {
  return {
    code: writer.text(line.code),
    name: writer.text(line.name),
    description: writer.paragraph(line.description),
    numbers: [
      ['quantity', writer.text(line.quantity)],
      ['unitPrice', writer.text(line.unitPrice)],
      ['discount', writer.text(line.discount)],
      ['amount', writer.text(line.amount)],
    ],
  };
}

function measureRow(doc: Pdf, row: RowText): { height: number; nameHeight: number } {
  const width = itemWidth - 2 * cellPadding;
  font(doc, 'semibold', 9, colour.ink);
  const nameHeight = doc.heightOfString(row.name || ' ', { width });
  font(doc, 'regular', 8.5, colour.muted);
  const descriptionHeight = row.description ? doc.heightOfString(row.description, { width, lineGap: 0.5 }) + 2 : 0;
  font(doc, 'regular', 8, colour.muted);
  const codeHeight = row.code ? doc.heightOfString(row.code, { width: columnWidths.code - 2 * cellPadding }) : 0;
  const height = Math.min(maxRowHeight, Math.max(nameHeight + descriptionHeight, codeHeight, 11) + 2 * rowPadding);
  return { height, nameHeight };
}

function drawRow(doc: Pdf, row: RowText, top: number, measured: { height: number; nameHeight: number }): void {
  const y = top + rowPadding;
  const width = itemWidth - 2 * cellPadding;
  const room = measured.height - 2 * rowPadding;
  if (row.code) {
    font(doc, 'regular', 8, colour.muted);
    doc.text(row.code, columns.code.x + cellPadding, y + 1, { width: columnWidths.code - 2 * cellPadding, height: room, ellipsis: true });
  }
  font(doc, 'semibold', 9, colour.ink);
  doc.text(row.name, columns.item.x + cellPadding, y, { width, height: room, ellipsis: true });
  if (row.description && room - measured.nameHeight > 8) {
    font(doc, 'regular', 8.5, colour.muted);
    doc.text(row.description, columns.item.x + cellPadding, y + measured.nameHeight + 2, { width, lineGap: 0.5, height: room - measured.nameHeight - 2, ellipsis: true });
  }
  for (const [key, value] of row.numbers) {
    if (!value) continue;
    const column = columns[key];
    const width = column.width - 2 - cellPadding;
    font(doc, key === 'amount' ? 'semibold' : 'regular', 9, key === 'amount' ? colour.ink : colour.text);
    fitToWidth(doc, value, width, 9);
    doc.text(value, column.x + 2, y, { width, align: 'right', lineBreak: false });
  }
  doc
    .moveTo(left, top + measured.height)
    .lineTo(right, top + measured.height)
    .lineWidth(0.5)
    .strokeColor(colour.rule)
    .stroke();
}

/** A page after the first: a one-line reminder of the document, then the table header again when the table goes on. */
function continuationPage(writer: Writer, content: BillingDocumentContent): number {
  const { doc, text } = writer;
  doc.addPage();
  font(doc, 'semibold', 9, colour.ink);
  doc.text(text(`${content.title} ${content.number}`), left, page.margin, { width: contentWidth / 2, lineBreak: false });
  font(doc, 'regular', 9, colour.muted);
  doc.text(text(content.company.name), left + contentWidth / 2, page.margin, { width: contentWidth / 2, align: 'right', lineBreak: false });
  return page.margin + 24;
}

/** `totalsHeight`: the last line moves to the next page with the totals rather than leave them alone there. */
function drawLines(writer: Writer, content: BillingDocumentContent, top: number, totalsHeight: number): number {
  const { doc } = writer;
  let y = drawTableHeader(writer, content, top);
  if (content.lines.length === 0) {
    font(doc, 'regular', 9, colour.muted);
    doc.text(writer.text('No lines.'), columns.item.x + cellPadding, y + rowPadding, { width: itemWidth });
    return y + 2 * rowPadding + 11;
  }
  let rowsOnPage = 0;
  for (const [index, line] of content.lines.entries()) {
    const row = rowText(writer, line);
    const measured = measureRow(doc, row);
    const last = index === content.lines.length - 1;
    const needed = measured.height + (last && rowsOnPage > 0 && totalsHeight + measured.height + headerRowHeight < maxRowHeight ? totalsHeight : 0);
    if (y + needed > contentBottom) {
      y = drawTableHeader(writer, content, continuationPage(writer, content));
      rowsOnPage = 0;
    }
    rowsOnPage += 1;
    drawRow(doc, row, y, measured);
    y += measured.height;
  }
  return y;
}

const totalsWidth = 300;
const totalsValueWidth = 90;

function totalStyle(kind: BillingContentTotal['kind']): { font: FontName; size: number; fill: string; labelFill: string } {
  switch (kind) {
    case 'total':
      return { font: 'bold', size: 11, fill: colour.ink, labelFill: colour.ink };
    case 'balance':
      return { font: 'bold', size: 12, fill: colour.brand, labelFill: colour.brand };
    case 'note':
      return { font: 'regular', size: 8.5, fill: colour.muted, labelFill: colour.muted };
    default:
      return { font: 'regular', size: 9, fill: colour.ink, labelFill: colour.text };
  }
}

function measureTotal(doc: Pdf, label: string, kind: BillingContentTotal['kind']): number {
  const style = totalStyle(kind);
  font(doc, style.font, style.size, style.fill);
  const height = doc.heightOfString(label, { width: totalsWidth - totalsValueWidth - 16 });
  return height + (kind === 'total' || kind === 'balance' ? 16 : 8);
}

const totalsGap = 12;

function totalsRows(writer: Writer, content: BillingDocumentContent): { rows: BillingContentTotal[]; heights: number[]; height: number } {
  const rows = content.totals.map((row) => ({ ...row, label: writer.text(row.label), value: writer.text(row.value) }));
  const heights = rows.map((row) => measureTotal(writer.doc, row.label, row.kind));
  return { rows, heights, height: totalsGap + heights.reduce((sum, height) => sum + height, 0) };
}

/** Subtotal, taxes, total, payments and the balance, right-aligned and kept together on one page. */
function drawTotals(writer: Writer, content: BillingDocumentContent, top: number): number {
  const { doc } = writer;
  const { rows, heights, height } = totalsRows(writer, content);
  let y = top + totalsGap;
  if (top + height > contentBottom) y = continuationPage(writer, content);
  const x = right - totalsWidth;
  rows.forEach((row, index) => {
    const height = heights[index]!;
    const style = totalStyle(row.kind);
    const emphasised = row.kind === 'total' || row.kind === 'balance';
    if (row.kind === 'total') doc.moveTo(x, y).lineTo(right, y).lineWidth(1).strokeColor(colour.ink).stroke();
    if (row.kind === 'balance') doc.rect(x, y + 2, totalsWidth, height - 2).fill(colour.brandTint);
    const textY = y + (emphasised ? 8 : 4);
    font(doc, style.font, style.size, style.labelFill);
    doc.text(row.label, x + 8, textY, { width: totalsWidth - totalsValueWidth - 16 });
    font(doc, style.font, style.size, style.fill);
    fitToWidth(doc, row.value, totalsValueWidth, style.size);
    doc.text(row.value, right - totalsValueWidth - 8, textY, { width: totalsValueWidth, align: 'right', lineBreak: false });
    y += height;
  });
  return y;
}

/** Notes and the payment terms: full width, flowing onto further pages when long. */
function drawClosing(writer: Writer, content: BillingDocumentContent, top: number): void {
  const { doc } = writer;
  let y = top + 20;
  const sections: [string, string][] = [];
  if (content.notes) sections.push(['Notes', content.notes]);
  if (content.footer) sections.push([content.title === 'Quote' ? 'Terms' : 'Payment terms', content.footer]);
  for (const [label, body] of sections) {
    const printed = writer.paragraph(body);
    font(doc, 'regular', 9, colour.text);
    // The heading and at least two lines of the text stay together; the rest may flow on.
    const firstLines = Math.min(doc.heightOfString(printed, { width: contentWidth, lineGap: 1.5 }), 2 * doc.currentLineHeight(true) + 3);
    if (y + 13 + firstLines > contentBottom) y = continuationPage(writer, content);
    font(doc, 'semibold', 7.5, colour.muted);
    doc.text(writer.text(label.toUpperCase()), left, y, { width: contentWidth, characterSpacing: 0.6 });
    font(doc, 'regular', 9, colour.text);
    // pdfkit moves on to a new page by itself when the text reaches the bottom margin.
    doc.text(printed, left, doc.y + 3, { width: contentWidth, lineGap: 1.5 });
    y = doc.y + 14;
  }
}

/** "Company · Invoice INV-000123" and "Page 1 of 2" at the foot of every page. */
function drawPageFooters(writer: Writer, content: BillingDocumentContent): void {
  const { doc, text } = writer;
  const range = doc.bufferedPageRange();
  const label = text(`${content.company.name} · ${content.title} ${content.number}`);
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    // Writing below the bottom margin would start a new page: lift the margin while writing the foot.
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, bottom: 0 };
    doc.moveTo(left, page.footerTop).lineTo(right, page.footerTop).lineWidth(0.5).strokeColor(colour.rule).stroke();
    font(doc, 'regular', 8, colour.muted);
    doc.text(label, left, page.footerTop + 8, { width: contentWidth - 90, lineBreak: false, height: 10, ellipsis: true });
    doc.text(`Page ${index + 1} of ${range.count}`, right - 90, page.footerTop + 8, { width: 90, align: 'right', lineBreak: false });
    doc.page.margins = margins;
  }
}

/** The PDF of a billing document (see the file comment). */
export async function renderBillingPdf(document: BillingDocument): Promise<Buffer> {
  const [PDFDocument, fonts] = await Promise.all([loadPdfkit(), loadBillingFonts()]);
  const content = billingDocumentContent(document);
  const options = {
    size: 'LETTER',
    margins: { top: page.margin, left: page.margin, right: page.margin, bottom: page.height - contentBottom },
    bufferPages: true,
    autoFirstPage: false,
    // No standard font: every character is drawn with the embedded Inter. pdfkit skips its default
    // (Helvetica) for a null font, which its type declarations do not allow: hence Reflect.construct.
    font: null,
    lang: 'en-US',
    displayTitle: true,
    info: {
      Title: `${content.title} ${content.number}`,
      Author: content.company.name,
      Subject: `${content.title} ${content.number} for ${content.billTo.name}`,
      Creator: content.company.name,
    },
  };
  const doc: Pdf = Reflect.construct(PDFDocument, [options]);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // pdfkit takes a parsed fontkit font (see fonts.ts); its type declarations list file sources only.
  for (const name of ['regular', 'semibold', 'bold'] as const) Reflect.apply(doc.registerFont, doc, [name, fonts.fonts[name]]);
  doc.font('regular');
  doc.addPage();

  const writer: Writer = {
    doc,
    text: (value) => printableText(value, fonts.covered),
    paragraph: (value) => printableText(value, fonts.covered, true),
  };
  const headerBottom = drawHeader(writer, content);
  const partiesBottom = drawParties(writer, content, headerBottom + 18);
  const linesBottom = drawLines(writer, content, partiesBottom + 22, totalsRows(writer, content).height);
  const totalsBottom = drawTotals(writer, content, linesBottom);
  drawClosing(writer, content, totalsBottom);
  drawPageFooters(writer, content);
  doc.end();
  return done;
}
