// fontkit (pdfkit's own font engine, pinned to the version pdfkit uses) ships no type declarations:
// this covers the one call the billing PDF makes, to learn which characters a font can draw.
declare module 'fontkit' {
  export interface Font {
    /** Every Unicode code point the font's cmap maps to a glyph. */
    characterSet: number[];
    /** pdfkit takes a parsed font when it has this method. */
    layout(text: string): unknown;
  }
  export function create(buffer: Buffer): Font;
}
