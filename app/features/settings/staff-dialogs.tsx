import { useId, useRef, useState, type FormEvent } from 'react';
import { passwordRuleProblem, type StaffAccount } from '#shared/auth.ts';
import type { StaffRole } from '#shared/enums.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog, Dialog } from '#client/components/ui/dialog.tsx';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from '#client/features/account/index.ts';
import { company } from '#client/lib/company.ts';
import { fieldErrorOf, messageOf, useChangeRole, useResetPassword, useSetActive } from './staff-api.ts';

// Settings > Staff: the role words, the setup choice (link or password) and the dialogs that
// confirm a deactivation, a reactivation or a role change, and reset a password.

export const staffRoleLabels: Record<StaffRole, string> = { admin: 'Administrator', dispatcher: 'Dispatcher' };
export const roleDescriptions: Record<StaffRole, string> = {
  admin: 'everything, including staff accounts and settings',
  dispatcher: 'everything except staff accounts and settings',
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

export function PendingDialog({ action, onClose, onDone }: { action: PendingAction; onClose: () => void; onDone: (message: string) => void }) {
  const setActive = useSetActive();
  const changeRole = useChangeRole();
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
  if (action.kind === 'reactivate') {
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
  const role: StaffRole = account.role === 'admin' ? 'dispatcher' : 'admin';
  return (
    <ConfirmDialog
      title={`Make ${account.name} ${role === 'admin' ? 'an administrator' : 'a dispatcher'}?`}
      message={
        <>
          <p>
            {staffRoleLabels[role]}s can do {roleDescriptions[role]}. The change applies to their next action.
          </p>
          {errorMessage}
        </>
      }
      confirmLabel={`Make ${staffRoleLabels[role].toLowerCase()}`}
      pendingLabel="Saving..."
      isPending={changeRole.isPending}
      onCancel={onClose}
      onConfirm={() => void run(() => changeRole.mutateAsync({ id: account.id, role }), `${account.name} is now ${role === 'admin' ? 'an administrator' : 'a dispatcher'}.`)}
    />
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
