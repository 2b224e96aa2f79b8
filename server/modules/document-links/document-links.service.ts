import { createHash, randomBytes } from 'node:crypto';
import type { DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import type { DocumentLinkRepository } from './document-links.repository.ts';

export type DocumentType = 'quote' | 'invoice' | 'visit';

/** What a valid link opens. */
export type OpenedLink = { documentType: DocumentType; documentId: string; linkVersion: number; expiresAt: Date };

/** base64url of 32 random bytes: 43 characters. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The one answer for every link that does not open: unknown, tampered, expired, revoked or of another kind. */
export const invalidLinkMessage = 'This link is not valid or has expired. Please contact us for a new one.';

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Customer links to a quote or an invoice (issue 20, decision 024-c): 32 random bytes, stored as
 * their SHA-256 with the document, its link version and an expiry. `open` answers the same 404 for
 * every link that does not open, so a caller learns nothing about other documents.
 */
export function createDocumentLinkService(deps: { repository: DocumentLinkRepository; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** A new link's token (to put in the URL); the caller's transaction stores its hash. */
    async create(executor: DbExecutor, link: { documentType: DocumentType; documentId: string; linkVersion: number; validDays: number }): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + link.validDays * 24 * 60 * 60 * 1000);
      await deps.repository.insert(executor, {
        tokenHash: hashLinkToken(token),
        documentType: link.documentType,
        documentId: link.documentId,
        linkVersion: link.linkVersion,
        expiresAt,
      });
      return { token, expiresAt };
    },

    /**
     * The document a token opens, for `expected` documents only, when it has not expired and the
     * document's current link version (read by `currentVersion`) is still the link's. Else 404.
     */
    async open(
      token: string,
      expected: DocumentType,
      currentVersion: (documentId: string) => Promise<number | undefined>,
      executor?: DbExecutor,
    ): Promise<OpenedLink> {
      const refused = () => new AppError('NOT_FOUND', invalidLinkMessage);
      if (!tokenPattern.test(token)) throw refused();
      const row = await deps.repository.open(hashLinkToken(token), executor);
      if (!row || row.documentType !== expected || row.expiresAt.getTime() <= now().getTime()) throw refused();
      const version = await currentVersion(row.documentId);
      if (version === undefined || version !== row.linkVersion) throw refused();
      return { documentType: expected, documentId: row.documentId, linkVersion: row.linkVersion, expiresAt: row.expiresAt };
    },

    deleteExpired: (before: Date = now()) => deps.repository.deleteExpired(before),
  };
}

export type DocumentLinkService = ReturnType<typeof createDocumentLinkService>;
