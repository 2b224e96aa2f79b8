/** Public entry of audit: other modules import only what this file exports (decision 019-l). */
export { actorOf, type AuditActor, diffFields, hasChanges, recordAudit, systemActors } from './audit.service.ts';
