import type { z } from 'zod';
import {
  technicianMessages,
  type TechnicianSettingsItem,
  type TechnicianSettingsListResponse,
  type technicianCreateSchema,
  type technicianUpdateSchema,
} from '#shared/technician.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import type { Technician } from '#shared/work-order.ts';
import { AppError } from '#server/errors.ts';
import { diffFields, hasChanges, recordAudit, type AuditActor } from '#server/modules/audit/index.ts';
import { createTechnicianRepository, type TechnicianRow } from './technician.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

const notFound = () => new AppError('NOT_FOUND', technicianMessages.notFound);

function isActiveNameTaken(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { code, constraint } = cause as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || constraint === 'technicians_active_name_key');
}

const nameTaken = (name: string) =>
  new AppError('CONFLICT', technicianMessages.nameTaken(name), [{ path: 'name', message: technicianMessages.nameTaken(name) }]);

function toItem(row: TechnicianRow, openWorkOrders: number, accountEmail: string | null): TechnicianSettingsItem {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    active: row.active,
    openWorkOrders,
    accountEmail,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The action a change is logged as: a rename, a (de)activation, or a general update. */
function actionOf(changes: Record<string, unknown>): string {
  const fields = Object.keys(changes);
  if (fields.length === 1 && fields[0] === 'active') return (changes.active as [boolean, boolean])[1] ? 'activated' : 'deactivated';
  if (fields.length === 1 && fields[0] === 'name') return 'renamed';
  return 'updated';
}

/**
 * Technician management in settings (issue 10). Names are unique among active technicians (any
 * case; the database's partial unique index decides, so two admins cannot race past it). Each
 * change is recorded in the activity log in its own transaction.
 */
export function createTechnicianService(options: {
  db: Database;
  /**
   * Ends the sessions of the staff account linked to a technician, in the deactivating
   * transaction (decision 022-a, "Later"); the ended sessions' ids. Passed in by app.ts (the auth module's).
   */
  endSessionsOfTechnician?: (tx: Database, technicianId: string) => Promise<string[]>;
  /** After the commit: the live-update streams of the ended sessions close. */
  onSessionsEnded?: (sessionIds: string[]) => void;
}) {
  const { db } = options;
  const repository = createTechnicianRepository(db);

  return {
    /** Every staff member's read (the calendar and the work-order pickers), not the settings list. */
    async pickerList(activeOnly: boolean): Promise<{ technicians: Technician[] }> {
      return { technicians: await repository.listForPickers(activeOnly) };
    },

    async list(): Promise<TechnicianSettingsListResponse> {
      const rows = await repository.listWithOpenWork();
      return { technicians: rows.map((row) => toItem(row, row.openWorkOrders, row.accountEmail)) };
    },

    async create(values: z.output<typeof technicianCreateSchema>, actor: AuditActor): Promise<TechnicianSettingsItem> {
      try {
        return await withTransaction(db, async (tx) => {
          const row = await createTechnicianRepository(tx).insert(values);
          await recordAudit(tx, {
            actor,
            entityType: 'technician',
            entityId: row.id,
            entityLabel: row.name,
            action: 'created',
            changes: diffFields(undefined, row, { only: ['name', 'color', 'active'] }),
          });
          return toItem(row, 0, null);
        });
      } catch (error) {
        if (isActiveNameTaken(error)) throw nameTaken(values.name);
        throw error;
      }
    },

    async update(id: string, values: z.output<typeof technicianUpdateSchema>, actor: AuditActor): Promise<TechnicianSettingsItem> {
      if (!isUuid(id)) throw notFound();
      const key = id.toLowerCase();
      const ended: string[] = [];
      try {
        const item = await withTransaction(db, async (tx) => {
          const technicians = createTechnicianRepository(tx);
          const before = await technicians.lockById(key);
          if (!before) throw notFound();
          const changes = diffFields(before, { ...before, ...values }, { only: ['name', 'color', 'active'] });
          if (!hasChanges(changes)) return toItem(before, await technicians.openWorkOrders(key), await technicians.accountEmail(key));
          const row = (await technicians.update(key, values))!;
          // A deactivated technician's account stops working at once, as a deactivated account does.
          if (before.active && !row.active && options.endSessionsOfTechnician) ended.push(...(await options.endSessionsOfTechnician(tx, key)));
          await recordAudit(tx, { actor, entityType: 'technician', entityId: key, entityLabel: row.name, action: actionOf(changes), changes });
          return toItem(row, await technicians.openWorkOrders(key), await technicians.accountEmail(key));
        });
        if (ended.length > 0) options.onSessionsEnded?.(ended);
        return item;
      } catch (error) {
        if (isActiveNameTaken(error)) throw nameTaken(values.name ?? 'that');
        throw error;
      }
    },
  };
}

export type TechnicianService = ReturnType<typeof createTechnicianService>;
