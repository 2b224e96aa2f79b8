import { randomBytes } from 'node:crypto';
import {
  staffMessages,
  type AddStaffInput,
  type PasswordSetup,
  type StaffAccount,
  type StaffUser,
} from '#shared/auth.ts';
import type { AuditChanges } from '#shared/audit.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import type { StaffRole } from '#shared/enums.ts';
import { withTransaction, type Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { type AuthRepository, assertAcceptablePassword, hashToken, hashPassword, verifyPassword } from '#server/modules/auth/index.ts';
import { recordAudit } from '#server/modules/audit/index.ts';
import type { EmailOutbox } from '#server/modules/email/index.ts';
import { setPasswordEmail } from './staff-emails.ts';
import type { LinkedTechnician, StaffRepository, StaffRow } from './staff.repository.ts';
import { isUuid } from '#server/lib/uuid.ts';

/** How long a set-password link works. */
export const setPasswordLinkHours = 72;


export type StaffServiceOptions = {
  db: Database;
  staff: StaffRepository;
  auth: AuthRepository;
  outbox: EmailOutbox;
  company: CompanyProfile;
  /** Told the ids of sessions just ended, so their open live-update streams end at once. */
  onSessionsEnded?: (sessionIds: string[]) => void;
  now?: () => Date;
};

export function toStaffAccount(row: StaffRow & { technician?: LinkedTechnician | null }): StaffAccount {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    technicianId: row.technicianId,
    ...(row.technician !== undefined ? { technician: row.technician } : {}),
    active: row.active,
    hasPassword: row.passwordHash !== null,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Staff accounts (issue 10): the admin's list, add (with a password or a one-time set-password
 * link sent through the e-mail outbox), role changes, deactivation (which ends the user's sessions
 * at once), reactivation, password resets; the set-password link's use; anyone's own password
 * change. Sign-in and sessions stay the auth module's (auth.service.ts).
 */
export function createStaffAccountService(options: StaffServiceOptions) {
  const { db, staff, auth, outbox, company } = options;
  const now = options.now ?? (() => new Date());
  /** The activity log entry of a change, in its transaction (never a password, hash or token). */
  const audit = (tx: Database, actor: StaffUser, target: StaffRow, action: string, changes: AuditChanges) =>
    recordAudit(tx, { actor: { id: actor.id, name: actor.name || actor.email }, entityType: 'staff', entityId: target.id, entityLabel: `${target.name} (${target.email})`, action, changes });
  const notFound = () => new AppError('NOT_FOUND', staffMessages.notFound);
  const passwordContext = (row: { email: string; name: string }) => ({ email: row.email, name: row.name, companyName: company.name });

  async function find(id: string, executor: Database = db): Promise<StaffRow> {
    if (!isUuid(id)) throw notFound();
    const row = await staff.findById(id, executor);
    if (!row) throw notFound();
    return row;
  }

  /** Creates a link, withdraws the user's older ones and queues its e-mail, in the caller's transaction. */
  async function issueLink(tx: Database, user: StaffRow, purpose: 'invite' | 'reset', actor: StaffUser): Promise<Date> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now().getTime() + setPasswordLinkHours * 3_600_000);
    await staff.deleteLinksOf(tx, user.id);
    await staff.insertLink(tx, { tokenHash: hashToken(token), staffUserId: user.id, purpose, createdBy: actor.id, expiresAt });
    const link = `${company.siteUrl.replace(/\/$/, '')}/admin/set-password#token=${token}`;
    await outbox.enqueue(tx, [setPasswordEmail({ to: user, purpose, link, validHours: setPasswordLinkHours, company })]);
    return expiresAt;
  }

  async function endSessions(tx: Database, userId: string, except?: string): Promise<string[]> {
    return auth.deleteSessionsOfUser(userId, { except, executor: tx });
  }

  /** Runs a change in one transaction; afterwards ends the streams of sessions it ended and kicks the outbox. */
  async function change<T>(work: (tx: Database, ended: string[]) => Promise<T>): Promise<T> {
    const ended: string[] = [];
    const result = await withTransaction(db, (tx) => work(tx, ended));
    if (ended.length > 0) options.onSessionsEnded?.(ended);
    outbox.kick();
    return result;
  }

  /**
   * The technician a technician account links to (issue 19): required for that role, an active
   * technician, not already another account's; null for the other roles.
   */
  async function technicianLinkFor(tx: Database, role: StaffRole, technicianId: string | null | undefined, self?: string): Promise<string | null> {
    if (role !== 'technician') return null;
    const field = (message: string) => new AppError('VALIDATION_FAILED', message, [{ path: 'technicianId', message }]);
    if (!technicianId) throw field(staffMessages.technicianRequired);
    const key = technicianId.toLowerCase();
    if (!(await staff.isActiveTechnician(key, tx))) throw field(staffMessages.technicianUnavailable);
    const holder = await staff.findByTechnician(key, tx);
    if (holder && holder.id !== self) throw new AppError('CONFLICT', staffMessages.technicianTaken, [{ path: 'technicianId', message: staffMessages.technicianTaken }]);
    return key;
  }

  /** The last active admin can neither be deactivated nor demoted (checked with the admins locked). */
  async function assertAnotherAdminRemains(tx: Database, target: StaffRow): Promise<void> {
    const admins = await staff.lockActiveAdmins(tx);
    if (admins.includes(target.id) && admins.length <= 1) throw new AppError('CONFLICT', staffMessages.lastAdmin);
  }

  return {
    async list(): Promise<StaffAccount[]> {
      return (await staff.list()).map(toStaffAccount);
    },

    async add(actor: StaffUser, input: AddStaffInput): Promise<{ staff: StaffAccount; linkExpiresAt?: string }> {
      const email = input.email.trim().toLowerCase();
      const name = input.name.trim();
      if (input.setup === 'password') assertAcceptablePassword(input.password, passwordContext({ email, name }));
      if (await staff.findByEmail(email)) throw new AppError('CONFLICT', staffMessages.emailTaken, [{ path: 'email', message: staffMessages.emailTaken }]);
      const passwordHash = input.setup === 'password' ? await hashPassword(input.password) : null;
      return change(async (tx) => {
        const technicianId = await technicianLinkFor(tx, input.role, input.technicianId);
        const row = await staff.insert(tx, { email, name, role: input.role, technicianId, passwordHash }).catch((error: unknown) => {
          // Two admins adding the same address (or linking the same technician) at once: the unique indexes decide.
          if (isUniqueViolation(error, 'staff_users_technician_id_key')) {
            throw new AppError('CONFLICT', staffMessages.technicianTaken, [{ path: 'technicianId', message: staffMessages.technicianTaken }]);
          }
          if (isUniqueViolation(error)) throw new AppError('CONFLICT', staffMessages.emailTaken, [{ path: 'email', message: staffMessages.emailTaken }]);
          throw error;
        });
        const linkExpiresAt = input.setup === 'invite' ? await issueLink(tx, row, 'invite', actor) : undefined;
        await audit(tx, actor, row, input.setup === 'invite' ? 'invited' : 'created', {
          email: [null, row.email],
          name: [null, row.name],
          role: [null, row.role],
          ...(row.technicianId ? { technician: [null, row.technicianId] } : {}),
        });
        return { staff: toStaffAccount(row), ...(linkExpiresAt ? { linkExpiresAt: linkExpiresAt.toISOString() } : {}) };
      });
    },

    /**
     * A new role; the technician role with the technician the account is (issue 19). A change of
     * role ends the account's sessions: what a session may reach follows the role.
     */
    async changeRole(actor: StaffUser, id: string, role: StaffRole, requestedTechnicianId?: string | null): Promise<StaffAccount> {
      return change(async (tx, ended) => {
        const target = await find(id, tx);
        if (target.id === actor.id) throw new AppError('CONFLICT', staffMessages.selfRole);
        const technicianId = await technicianLinkFor(tx, role, requestedTechnicianId ?? (role === target.role ? target.technicianId : null), target.id);
        if (target.role === role && target.technicianId === technicianId) return toStaffAccount(target);
        if (target.role === 'admin') await assertAnotherAdminRemains(tx, target);
        const row = await staff.update(tx, target.id, { role, technicianId }).catch((error: unknown) => {
          if (isUniqueViolation(error, 'staff_users_technician_id_key')) {
            throw new AppError('CONFLICT', staffMessages.technicianTaken, [{ path: 'technicianId', message: staffMessages.technicianTaken }]);
          }
          throw error;
        });
        if (target.role !== role && (target.role === 'technician' || role === 'technician')) ended.push(...(await endSessions(tx, target.id)));
        await audit(tx, actor, row, 'role_changed', {
          role: [target.role, role],
          ...(target.technicianId !== technicianId ? { technician: [target.technicianId, technicianId] } : {}),
        });
        return toStaffAccount(row);
      });
    },

    /** Deactivates an account and ends all its sessions and links at once. */
    async deactivate(actor: StaffUser, id: string): Promise<StaffAccount> {
      return change(async (tx, ended) => {
        const target = await find(id, tx);
        if (target.id === actor.id) throw new AppError('CONFLICT', staffMessages.selfDeactivate);
        if (!target.active) return toStaffAccount(target);
        await assertAnotherAdminRemains(tx, target);
        const row = await staff.update(tx, target.id, { active: false });
        ended.push(...(await endSessions(tx, target.id)));
        await staff.deleteLinksOf(tx, target.id);
        await audit(tx, actor, row, 'deactivated', { active: [true, false] });
        return toStaffAccount(row);
      });
    },

    async reactivate(actor: StaffUser, id: string): Promise<StaffAccount> {
      return change(async (tx) => {
        const target = await find(id, tx);
        if (target.active) return toStaffAccount(target);
        const row = await staff.update(tx, target.id, { active: true });
        await audit(tx, actor, row, 'activated', { active: [false, true] });
        return toStaffAccount(row);
      });
    },

    /**
     * Another user's password: set by the admin, or a new link sent. Either way the user's sessions
     * end (whoever knew the old password is out).
     */
    async resetPassword(actor: StaffUser, id: string, setup: PasswordSetup): Promise<{ staff: StaffAccount; linkExpiresAt?: string }> {
      const before = await find(id);
      if (before.id === actor.id) throw new AppError('CONFLICT', staffMessages.selfReset);
      if (!before.active) throw new AppError('CONFLICT', staffMessages.inactive);
      if (setup.setup === 'password') assertAcceptablePassword(setup.password, passwordContext(before));
      const passwordHash = setup.setup === 'password' ? await hashPassword(setup.password) : undefined;
      return change(async (tx, ended) => {
        const target = await find(id, tx);
        let row = target;
        let linkExpiresAt: Date | undefined;
        if (passwordHash) {
          row = await staff.update(tx, target.id, { passwordHash });
          await staff.deleteLinksOf(tx, target.id);
        } else {
          linkExpiresAt = await issueLink(tx, target, target.passwordHash === null ? 'invite' : 'reset', actor);
        }
        ended.push(...(await endSessions(tx, target.id)));
        await audit(tx, actor, row, 'password_reset', {
          how: [null, setup.setup === 'invite' ? 'set-password link e-mailed' : 'set by an administrator'],
        });
        return { staff: toStaffAccount(row), ...(linkExpiresAt ? { linkExpiresAt: linkExpiresAt.toISOString() } : {}) };
      });
    },

    /** Who a set-password link is for, while it works. */
    async describeLink(token: string): Promise<{ email: string; name: string }> {
      const link = await staff.findLiveLink(hashToken(token), now());
      if (!link) throw new AppError('NOT_FOUND', staffMessages.linkInvalid);
      return { email: link.user.email, name: link.user.name };
    },

    /**
     * Uses a link: the password is checked against the policy first (a refused password leaves the
     * link usable), then the link is spent, the password set, the user's sessions and other links ended.
     */
    async setPasswordWithLink(token: string, password: string): Promise<void> {
      const link = await staff.findLiveLink(hashToken(token), now());
      if (!link) throw new AppError('NOT_FOUND', staffMessages.linkInvalid);
      assertAcceptablePassword(password, passwordContext(link.user), 'password');
      const passwordHash = await hashPassword(password);
      await change(async (tx, ended) => {
        if (!(await staff.consumeLink(tx, link.linkId, now()))) throw new AppError('NOT_FOUND', staffMessages.linkInvalid);
        await auth.updateStaffPassword(link.user.id, passwordHash, tx);
        await staff.deleteLinksOf(tx, link.user.id, { except: link.linkId });
        await audit(tx, link.user, link.user, 'password_changed', { how: [null, 'through a set-password link'] });
        ended.push(...(await endSessions(tx, link.user.id)));
      });
    },

    /** Anyone's own password: the current one is required; the user's other sessions end, this one stays. */
    async changeOwnPassword(user: StaffUser, sessionId: string, input: { currentPassword: string; newPassword: string }): Promise<void> {
      const row = await find(user.id);
      if (!row.passwordHash || !(await verifyPassword(row.passwordHash, input.currentPassword))) {
        throw new AppError('VALIDATION_FAILED', staffMessages.wrongCurrentPassword, [{ path: 'currentPassword', message: staffMessages.wrongCurrentPassword }]);
      }
      if (input.newPassword === input.currentPassword) {
        throw new AppError('VALIDATION_FAILED', staffMessages.samePassword, [{ path: 'newPassword', message: staffMessages.samePassword }]);
      }
      assertAcceptablePassword(input.newPassword, passwordContext(row), 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await change(async (tx, ended) => {
        await auth.updateStaffPassword(row.id, passwordHash, tx);
        await staff.deleteLinksOf(tx, row.id);
        await audit(tx, user, row, 'password_changed', { how: [null, 'by the user, with the current password'] });
        ended.push(...(await endSessions(tx, row.id, sessionId)));
      });
    },
  };
}

export type StaffService = ReturnType<typeof createStaffAccountService>;

function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const { code, constraint: violated } = current as { code?: string; constraint?: string };
    if (code === '23505') return constraint === undefined || violated === constraint || String((current as Error).message ?? '').includes(constraint);
  }
  return false;
}
