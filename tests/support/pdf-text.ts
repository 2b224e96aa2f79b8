import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

// Reads a PDF back with Mozilla's PDF.js (the legacy build, for Node): the text of each page as a
// viewer or a screen reader sees it, and where each piece of text sits.

export type PdfTextItem = { text: string; x: number; y: number; width: number; fontName: string };
export type PdfPageText = { text: string; items: PdfTextItem[] };
export type PdfText = { pages: PdfPageText[]; info: Record<string, unknown> };

/**
 * Collapses runs of white space, so text wrapped over lines compares as typed, and applies NFKC,
 * as PDF.js does to some characters it extracts (it reads the micro sign µ back as the Greek μ).
 */
export function normaliseSpace(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/**
 * PDF.js cuts a line of text into pieces where kerning moves a glyph ("Nov 27" + ","): pieces on
 * the same baseline that touch are joined again, so each item is a run of text as it was written.
 */
function joinTouching(items: PdfTextItem[], sizes: number[]): PdfTextItem[] {
  const joined: PdfTextItem[] = [];
  let open = false;
  items.forEach((item, index) => {
    const previous = joined.at(-1);
    const size = sizes[index]!;
    const gap = previous ? item.x - (previous.x + previous.width) : Infinity;
    // Kerning pulls a glyph back (a negative gap: "7" then ".") or a little forward.
    const touching = open && previous !== undefined && Math.abs(previous.y - item.y) < 0.5 && gap > -0.5 * size && gap < 0.15 * size;
    if (item.text.trim() === '') {
      // A space glyph goes on the run; a wide gap (between columns) ends it.
      if (touching && item.width < 0.6 * size) {
        previous.text += ' ';
        previous.width = item.x + item.width - previous.x;
      } else open = false;
    } else if (touching) {
      previous.text += item.text;
      previous.width = item.x + item.width - previous.x;
    } else {
      joined.push({ ...item });
      open = true;
    }
  });
  for (const item of joined) item.text = item.text.trim();
  return joined;
}

export async function extractPdfText(pdf: Uint8Array): Promise<PdfText> {
  const loading = getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 });
  const document = await loading.promise;
  try {
    const pages: PdfPageText[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const raw = content.items.filter((item): item is TextItem => 'str' in item);
      const items = joinTouching(
        raw.map((item) => ({ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width, fontName: item.fontName })),
        raw.map((item) => Math.hypot(item.transform[0] as number, item.transform[1] as number)),
      );
      pages.push({ text: normaliseSpace(items.map((item) => item.text).join(' ')), items });
    }
    const metadata = await document.getMetadata();
    return { pages, info: metadata.info as Record<string, unknown> };
  } finally {
    await loading.destroy();
  }
}
