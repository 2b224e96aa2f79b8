/** Public paths prerendered to HTML at build time (the server matches them case-insensitively). */
export const publicPagePaths = ['/'] as const;
