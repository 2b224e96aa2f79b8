/** Public entry of document-links: other modules import only what this file exports (decision 019-l). */
export { createDocumentLinkService, hashLinkToken, invalidLinkMessage, type DocumentLinkService, type DocumentType, type OpenedLink } from './document-links.service.ts';
export { type DocumentLinkRepository } from './document-links.repository.ts';
