import { useId, useRef, useState, type FormEvent } from 'react';
import { passwordRuleProblem, staffMessages, type StaffAccount } from '#shared/auth.ts';
import { staffRoles, type StaffRole } from '#shared/enums.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog, Dialog } from '#client/components/ui/dialog.tsx';
import { controlClass } from '#client/components/ui/form-field.tsx';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from '#client/features/account/index.ts';
import { company } from '#client/lib/company.ts';
import { fieldErrorOf, messageOf, useChangeRole, useResetPassword, useSetActive } from './staff-api.ts';
import { TechnicianSelect } from './staff-technician.tsx';

// Settings > Staff: the role words, the setup choice (link or password) and the dialogs that
// confirm a deactivation, a reactivation or a role change, and reset a password.

export const staffRoleLabels: Record<StaffRole, string> = { admin: 'Administrator', dispatcher: 'Dispatcher', technician: 'Technician' };
export const roleDescriptions: Record<StaffRole, string> = {
  admin: 'everything, including staff accounts and settings',
  dispatcher: 'everything except staff accounts and settings',
  technician: 'the technician app only: their own visits (linked to one technician)',
};

export type Setup = 'invite' | 'password';
export type PendingAction = { kind: 'deactivate' | 'reactivate' | 'role' | 'reset'; account: StaffAccount };

export function SetupChoice({
  value,
  onChange,
  legend,
  labels,
}: {
  value: Setup;
  onChange: (setup: Setup) => void;
  legend: string;
  labels: Record<Setup, string>;
}) {
  const name = useId();
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:gap-6">
        <label className="flex items-center gap-2 text-slate-800">
          <input type="radio" name={name} value="invite" checked={value === 'invite'} onChange={() => onChange('invite')} className="h-4 w-4" />
          {labels.invite}
        </label>
        <label className="flex items-center gap-2 text-slate-800">
          <input type="radio" name={name} value="password" checked={value === 'password'} onChange={() => onChange('password')} className="h-4 w-4" />
          {labels.password}
        </label>
      </div>
    </fieldset>
  );
}

export function PendingDialog({
  action,
  accounts,
  onClose,
  onDone,
}: {
  action: PendingAction;
  accounts: StaffAccount[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const setActive = useSetActive();
  const { account } = action;
  const [error, setError] = useState<string>();

  const run = async (work: () => Promise<unknown>, message: string) => {
    setError(undefined);
    try {
      await work();
      onDone(message);
      onClose();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  if (action.kind === 'reset') return <ResetPasswordDialog account={account} onClose={onClose} onDone={onDone} />;
  if (action.kind === 'role') return <ChangeRoleDialog account={account} accounts={accounts} onClose={onClose} onDone={onDone} />;

  const errorMessage = error ? <Alert className="mt-3">{error}</Alert> : null;
  if (action.kind === 'deactivate') {
    return (
      <ConfirmDialog
        title={`Deactivate ${account.name}?`}
        message={
          <>
            <p>They are signed out everywhere at once and cannot sign in until an administrator reactivates the account.</p>
            {errorMessage}
          </>
        }
        confirmLabel="Deactivate"
        pendingLabel="Deactivating..."
        isPending={setActive.isPending}
        onCancel={onClose}
        onConfirm={() => void run(() => setActive.mutateAsync({ id: account.id, active: false }), `${account.name} was deactivated and signed out everywhere.`)}
      />
    );
  }
  return (
    <ConfirmDialog
      title={`Reactivate ${account.name}?`}
      message={
        <>
          <p>They can sign in again with their password{account.hasPassword ? '' : ' once they have chosen one (send a new link with Reset password)'}.</p>
          {errorMessage}
        </>
      }
      confirmLabel="Reactivate"
      pendingLabel="Reactivating..."
      isPending={setActive.isPending}
      onCancel={onClose}
      onConfirm={() => void run(() => setActive.mutateAsync({ id: account.id, active: true }), `${account.name} was reactivated.`)}
    />
  );
}

const withArticle = (role: StaffRole) => (role === 'admin' ? 'an administrator' : role === 'dispatcher' ? 'a dispatcher' : 'a technician');

/**
 * A new role; the technician role with the technician the account is (issue 19). The server
 * refuses a technician that is inactive or another account's; its message shows on the field.
 */
function ChangeRoleDialog({
  account,
  accounts,
  onClose,
  onDone,
}: {
  account: StaffAccount;
  accounts: StaffAccount[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const changeRole = useChangeRole();
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = useFocusField(formRef);
  const roleId = useId();
  const technicianFieldId = useId();
  // Starts on the likeliest change: admin and dispatcher swap; a technician account keeps its role to relink it.
  const [role, setRole] = useState<StaffRole>(account.role === 'admin' ? 'dispatcher' : account.role === 'dispatcher' ? 'admin' : 'technician');
  const [technicianId, setTechnicianId] = useState(account.technicianId ?? '');
  const [technicianError, setTechnicianError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const unchanged = role === account.role && (role !== 'technician' || technicianId === (account.technicianId ?? ''));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    setTechnicianError(undefined);
    if (role === 'technician' && !technicianId) {
      setTechnicianError(staffMessages.technicianRequired);
      focusField('technicianId');
      return;
    }
    try {
      await changeRole.mutateAsync({ id: account.id, role, technicianId: role === 'technician' ? technicianId : null });
      const technician = role === 'technician' ? ` They sign in to the technician app as ${account.name}.` : '';
      onDone(`${account.name} is now ${withArticle(role)}.${technician}`);
      onClose();
    } catch (error) {
      const problem = fieldErrorOf(error, 'technicianId');
      setTechnicianError(problem);
      if (problem) focusField('technicianId');
      else setFormError(messageOf(error));
    }
  }

  return (
    <Dialog
      title={`Change ${account.name}'s role`}
      description={<p>A change into or out of the technician role signs them out everywhere; other changes apply to their next action.</p>}
      onClose={() => (changeRole.isPending ? undefined : onClose())}
      className="max-w-lg"
    >
      <div aria-live="assertive">{formError ? <Alert className="mt-3">{formError}</Alert> : null}</div>
      <FieldErrorAnnouncement message={technicianError} />
      <form ref={formRef} noValidate onSubmit={onSubmit} className="mt-4 grid gap-4">
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium text-slate-800">
            Role
          </label>
          <select
            id={roleId}
            name="role"
            value={role}
            onChange={(event) => setRole(event.target.value as StaffRole)}
            disabled={changeRole.isPending}
            className={controlClass}
          >
            {staffRoles.map((choice) => (
              <option key={choice} value={choice}>
                {staffRoleLabels[choice]}
                {choice === account.role ? ' (current)' : ''}: {roleDescriptions[choice]}
              </option>
            ))}
          </select>
        </div>
        {role === 'technician' ? (
          <TechnicianSelect
            id={technicianFieldId}
            value={technicianId}
            onChange={setTechnicianId}
            error={technicianError}
            accounts={accounts}
            self={account.id}
            disabled={changeRole.isPending}
          />
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={changeRole.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={changeRole.isPending || unchanged}>
            {changeRole.isPending ? 'Saving...' : 'Change role'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function ResetPasswordDialog({ account, onClose, onDone }: { account: StaffAccount; onClose: () => void; onDone: (message: string) => void }) {
  const reset = useResetPassword();
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = useFocusField(formRef);
  const [setup, setSetup] = useState<Setup>('invite');
  const [passwordError, setPasswordError] = useState<string>();
  const [formError, setFormError] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    const form = event.currentTarget;
    const password = String(new FormData(form).get('password') ?? '');
    if (setup === 'password') {
      const problem = passwordRuleProblem(password, { email: account.email, name: account.name, companyName: company.name });
      setPasswordError(problem);
      if (problem) {
        focusField('password');
        return;
      }
    }
    try {
      const result = await reset.mutateAsync({ id: account.id, setup: setup === 'password' ? { setup, password } : { setup } });
      onDone(
        result.linkExpiresAt
          ? `A set-password link was e-mailed to ${account.email}. ${account.name} was signed out everywhere.`
          : `${account.name}'s password was changed and they were signed out everywhere.`,
      );
      onClose();
    } catch (error) {
      const problem = fieldErrorOf(error, 'password');
      setPasswordError(problem);
      if (problem) focusField('password');
      else setFormError(messageOf(error));
    }
  }

  return (
    <Dialog
      title={`Reset ${account.name}'s password`}
      description={<p>They are signed out everywhere. Send them a link to choose a new password, or set one yourself and tell them.</p>}
      onClose={() => (reset.isPending ? undefined : onClose())}
      className="max-w-lg"
    >
      <div aria-live="assertive">{formError ? <Alert className="mt-3">{formError}</Alert> : null}</div>
      <FieldErrorAnnouncement message={passwordError} />
      <form ref={formRef} noValidate onSubmit={onSubmit} className="mt-4 grid gap-4">
        <SetupChoice
          value={setup}
          onChange={setSetup}
          legend="New password"
          labels={{ invite: 'E-mail a set-password link (works once, for 72 hours)', password: 'Set a new password now' }}
        />
        {setup === 'password' ? <NewPasswordField name="password" label="New password" error={passwordError} disabled={reset.isPending} /> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={reset.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={reset.isPending}>
            {reset.isPending ? 'Saving...' : setup === 'invite' ? 'Send link' : 'Set password'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
