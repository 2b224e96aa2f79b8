/** Public entry of audit: other modules import only what this file exports (decision 019-l). */
export { actorOf, type AuditActor, diffFields, hasChanges, recordAudit, recordAudits, systemActors } from './audit.service.ts';
