/** The user's text matched literally inside LIKE/ILIKE: \, % and _ lose their pattern meaning. Shared by every module's search. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
