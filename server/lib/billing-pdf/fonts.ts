import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Font, GlyphRun } from 'fontkit';

// The fonts the billing PDF embeds: Inter (SIL Open Font License 1.1), the static TTF instances
// that the npm package @expo-google-fonts/inter ships, so `npm ci` installs them (decision 024-d).
// Read once per process, on the first PDF; pdfkit embeds a subset of each (FontFile2). fontkit is
// pdfkit's own font engine (the same package), so pdfkit takes its parsed fonts as they are.

const require = createRequire(import.meta.url);

const files = {
  regular: '@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf',
  semibold: '@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf',
  bold: '@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf',
} as const;

export type FontName = keyof typeof files;

export type BillingFonts = {
  /** Parsed once per process and handed to every document: parsing Inter's layout tables is most of a PDF's cost otherwise. */
  fonts: Record<FontName, Font>;
  /** The code points every one of the three fonts can draw. */
  covered: ReadonlySet<number>;
};

let loading: Promise<BillingFonts> | undefined;

async function load(): Promise<BillingFonts> {
  const [fontkit, regular, semibold, bold] = await Promise.all([
    import('fontkit'),
    readFile(require.resolve(files.regular)),
    readFile(require.resolve(files.semibold)),
    readFile(require.resolve(files.bold)),
  ]);
  const parsed = { regular: fontkit.create(regular), semibold: fontkit.create(semibold), bold: fontkit.create(bold) };
  const sets = Object.values(parsed).map((font) => new Set(font.characterSet));
  const fonts = { regular: withLayoutMemo(parsed.regular), semibold: withLayoutMemo(parsed.semibold), bold: withLayoutMemo(parsed.bold) };
  const covered = new Set([...sets[0]!].filter((codePoint) => sets.every((set) => set.has(codePoint))));
  return { fonts, covered };
}

/** Words whose shaping a font keeps between documents; past this the memo starts again (bounded memory). */
export const layoutMemoSize = 20_000;

/**
 * The font with a memo of its shaping results across documents. Shaping a word with Inter's
 * OpenType features (contextual alternates, kerning) costs a few hundred microseconds and was most
 * of a PDF's time; pdfkit keeps a memo per document only, while the words of invoices repeat (the
 * letterhead, labels, price-book names, dates). Same result as shaping again: a layout depends on
 * the text and the font alone. pdfkit scales the positions it gets in place, so each caller gets a
 * copy; the glyphs are shared (pdfkit only reads them).
 */
function withLayoutMemo(font: Font): Font {
  const memo = new Map<string, GlyphRun>();
  const layout = font.layout.bind(font);
  const memoised: Font = Object.create(font);
  memoised.layout = (text: string, features?: unknown): GlyphRun => {
    if (features !== undefined) return layout(text, features);
    let run = memo.get(text);
    if (!run) {
      if (memo.size >= layoutMemoSize) memo.clear();
      run = layout(text);
      memo.set(text, run);
    }
    return copyRun(run);
  };
  return memoised;
}

function copyRun(run: GlyphRun): GlyphRun {
  return {
    glyphs: run.glyphs.slice(),
    positions: run.positions.map((position) => ({ xAdvance: position.xAdvance, yAdvance: position.yAdvance, xOffset: position.xOffset, yOffset: position.yOffset })),
    get advanceWidth() {
      return this.positions.reduce((sum, position) => sum + position.xAdvance, 0);
    },
  };
}

export function loadBillingFonts(): Promise<BillingFonts> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** What the PDF prints for a character none of its fonts has (a missing glyph would print as an empty box). */
export const missingGlyphReplacement = '?';

/** Zero-width spaces and joiners, direction marks, word joiners, variation selectors, the BOM: print as nothing. */
function isInvisible(codePoint: number): boolean {
  return (codePoint >= 0x200b && codePoint <= 0x200f) || (codePoint >= 0x2060 && codePoint <= 0x2064) || (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || codePoint === 0xfeff;
}

/**
 * Text the fonts can draw: NFC-normalised (so "e" + combining acute becomes "é", which Inter has),
 * tabs and other control characters as spaces (line breaks kept where `keepLineBreaks`), and every
 * character none of the fonts has replaced by "?" (decision 024-d).
 */
export function printableText(text: string, covered: ReadonlySet<number>, keepLineBreaks = false): string {
  let result = '';
  for (const character of text.normalize('NFC').replace(/\r\n?/g, '\n')) {
    const codePoint = character.codePointAt(0)!;
    if (character === '\n') result += keepLineBreaks ? '\n' : ' ';
    else if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) result += ' ';
    else if (covered.has(codePoint)) result += character;
    else if (isInvisible(codePoint)) continue;
    else result += missingGlyphReplacement;
  }
  return result;
}
