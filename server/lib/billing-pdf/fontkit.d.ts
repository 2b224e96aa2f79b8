// fontkit (pdfkit's own font engine, pinned to the version pdfkit uses) ships no type declarations:
// this covers what the billing PDF uses: which characters a font can draw, and its layout (shaping),
// which billing-pdf/fonts.ts keeps between documents.
declare module 'fontkit' {
  export interface GlyphPosition {
    xAdvance: number;
    yAdvance: number;
    xOffset: number;
    yOffset: number;
  }
  export interface GlyphRun {
    glyphs: unknown[];
    positions: GlyphPosition[];
    readonly advanceWidth: number;
  }
  export interface Font {
    /** Every Unicode code point the font's cmap maps to a glyph. */
    characterSet: number[];
    /** Shapes a run of text (pdfkit takes a parsed font when it has this method). */
    layout(text: string, features?: unknown): GlyphRun;
  }
  export function create(buffer: Buffer): Font;
}
