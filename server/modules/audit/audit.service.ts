import type { FastifyRequest } from 'fastify';
import type { AuditChanges, AuditEntityType } from '#shared/audit.ts';
import type { Database } from '#server/db/client.ts';
import { auditLog } from '#server/db/schema/index.ts';
import { AppError } from '#server/errors.ts';

/**
 * Who did it: a staff user (id and name as they were), or the public site / chat assistant (no id).
 * Services take one as their last argument; routes make it with actorOf(request).
 */
export type AuditActor = { id: string | null; name: string };

export const systemActors = {
  websiteVisitor: { id: null, name: 'Website visitor' },
  chatAssistant: { id: null, name: 'Chat assistant' },
  system: { id: null, name: 'System' },
  /** A customer through their visit's link (issue 21): rescheduled or cancelled it. */
  customerLink: { id: null, name: 'Customer (visit link)' },
} as const satisfies Record<string, AuditActor>;

/** The signed-in staff user of an /api/admin request (the session guard has set it). */
export function actorOf(request: FastifyRequest): AuditActor {
  const user = request.staffUser;
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in.');
  return { id: user.id, name: user.name || user.email };
}

export type AuditEntryInput = {
  actor: AuditActor;
  entityType: AuditEntityType;
  entityId: string;
  /** What the record is called now (work order number, customer name): kept, as the record may go. */
  entityLabel?: string | null;
  action: string;
  changes?: AuditChanges;
};

/**
 * Appends one entry. Pass the transaction the change runs in: the entry commits with the change
 * and a rolled-back change leaves none. Secret-looking fields are dropped here as a last guard.
 */
export async function recordAudit(tx: Database, entry: AuditEntryInput): Promise<void> {
  await recordAudits(tx, [entry]);
}

/** Appends several entries in one statement (one round trip), in the given order; as `recordAudit`. */
export async function recordAudits(tx: Database, entries: AuditEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(auditLog).values(
    entries.map((entry) => ({
      actorId: entry.actor.id,
      actorName: entry.actor.name,
      entityType: entry.entityType,
      entityId: entry.entityId,
      entityLabel: entry.entityLabel ?? null,
      action: entry.action,
      changes: withoutSecrets(entry.changes ?? {}),
    })),
  );
}

/** Field names never written to the log, whatever a caller passes. */
const secretField = /password|secret|token|hash|api_?key|credential|idempotency/i;

/** Bookkeeping columns that are not a change anyone made. */
const bookkeepingFields = new Set(['id', 'createdAt', 'updatedAt']);

function withoutSecrets(changes: AuditChanges): AuditChanges {
  return Object.fromEntries(Object.entries(changes).filter(([field]) => !secretField.test(field)));
}

/** A value as JSON keeps it: instants as ISO text, everything else as it is. */
function auditValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export type DiffOptions<Row> = {
  /** Only these fields (default: every field of the rows). */
  only?: readonly (keyof Row & string)[];
  /** Never these fields (on top of id/createdAt/updatedAt and secret-looking names). */
  omit?: readonly (keyof Row & string)[];
};

/**
 * The changed fields of a record as {field: [before, after]}. `before` undefined: created (every
 * set field as [null, value]); `after` undefined: deleted (every set field as [value, null]).
 */
export function diffFields<Row extends Record<string, unknown>>(
  before: Row | undefined,
  after: Row | undefined,
  options: DiffOptions<Row> = {},
): AuditChanges {
  const fields = options.only ?? (Object.keys(after ?? before ?? {}) as (keyof Row & string)[]);
  const omitted = new Set<string>(options.omit ?? []);
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (omitted.has(field) || bookkeepingFields.has(field) || secretField.test(field)) continue;
    const was = auditValue(before?.[field]);
    const now = auditValue(after?.[field]);
    if (same(was, now)) continue;
    changes[field] = [was, now];
  }
  return changes;
}

export const hasChanges = (changes: AuditChanges): boolean => Object.keys(changes).length > 0;
