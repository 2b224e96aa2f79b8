import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { addStaffSchema, passwordRuleProblem, type StaffAccount } from '#shared/auth.ts';
import { staffRoles, type StaffRole } from '#shared/enums.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog, Modal } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from '#client/features/account/new-password-field.tsx';
import { sessionQuery } from '#client/features/auth/session.ts';
import { company } from '#client/lib/company.ts';
import { fieldErrorOf, messageOf, useAddStaff, useChangeRole, useResetPassword, useSetActive, useStaffList } from './staff-api.ts';

export const staffRoleLabels: Record<StaffRole, string> = { admin: 'Administrator', dispatcher: 'Dispatcher' };
const roleDescriptions: Record<StaffRole, string> = {
  admin: 'everything, including staff accounts and settings',
  dispatcher: 'everything except staff accounts and settings',
};

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatWhen = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : 'Never');

type Setup = 'invite' | 'password';
type PendingAction = { kind: 'deactivate' | 'reactivate' | 'role' | 'reset'; account: StaffAccount };

/** Settings: staff accounts (issue 10). */
export function StaffPanel() {
  const staff = useStaffList();
  const session = useQuery(sessionQuery);
  const [status, setStatus] = useState('');
  const [pending, setPending] = useState<PendingAction>();
  const [isAdding, setIsAdding] = useState(false);
  const me = session.data?.user.id;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-xl font-semibold text-slate-900">Staff accounts</h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Administrators can do everything; dispatchers everything except staff accounts and settings. Deactivating an account signs
            that person out everywhere at once.
          </p>
        </div>
        {isAdding ? null : (
          <Button onClick={() => setIsAdding(true)}>
            Add staff member
          </Button>
        )}
      </div>

      {/* One polite live region for the outcome of every action. */}
      <div role="status" aria-live="polite" className={status ? 'rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900' : 'sr-only'}>
        {status}
      </div>

      {isAdding ? (
        <AddStaffForm
          onDone={(message) => {
            setIsAdding(false);
            if (message) setStatus(message);
          }}
        />
      ) : null}

      {staff.isPending ? (
        <p role="status" className="text-slate-600">
          Loading staff accounts...
        </p>
      ) : staff.isError ? (
        <Alert>
          {messageOf(staff.error)}{' '}
          <button type="button" className="font-semibold underline" onClick={() => void staff.refetch()}>
            Try again
          </button>
        </Alert>
      ) : (
        <ul aria-label="Staff accounts" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {staff.data.staff.map((account) => (
            <StaffRow key={account.id} account={account} isMe={account.id === me} onAction={(kind) => setPending({ kind, account })} />
          ))}
        </ul>
      )}

      {pending ? <PendingDialog action={pending} onClose={() => setPending(undefined)} onDone={setStatus} /> : null}
    </div>
  );
}

function StaffRow({ account, isMe, onAction }: { account: StaffAccount; isMe: boolean; onAction: (kind: PendingAction['kind']) => void }) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="font-semibold text-slate-900">
            {account.name}
            {isMe ? <span className="font-normal text-slate-600"> (you)</span> : null}
          </h3>
          <Badge tone={account.role === 'admin' ? 'primary' : 'info'}>{staffRoleLabels[account.role]}</Badge>
          {account.active ? <Badge tone="success">Active</Badge> : <Badge tone="danger">Deactivated</Badge>}
          {account.hasPassword ? null : <Badge tone="warning">Invited, no password yet</Badge>}
        </div>
        <p className="mt-1 break-all text-sm text-slate-700">{account.email}</p>
        <p className="mt-1 text-xs text-slate-600">
          Last sign-in: {formatWhen(account.lastSignInAt)} · Added {formatWhen(account.createdAt)}
        </p>
      </div>
      {isMe ? (
        <p className="text-sm text-slate-600">Change your own password from the account menu.</p>
      ) : (
        <div className="flex flex-wrap gap-2" role="group" aria-label={`Actions for ${account.name}`}>
          {account.active ? (
            <>
              <Button size="sm" variant="secondary" onClick={() => onAction('role')}>
                {account.role === 'admin' ? 'Make dispatcher' : 'Make administrator'}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => onAction('reset')}>
                Reset password
              </Button>
              <Button size="sm" variant="danger" onClick={() => onAction('deactivate')}>
                Deactivate
              </Button>
            </>
          ) : (
            <Button size="sm" variant="secondary" onClick={() => onAction('reactivate')}>
              Reactivate
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

type AddErrors = Partial<Record<'name' | 'email' | 'role' | 'password', string>>;

function AddStaffForm({ onDone }: { onDone: (message?: string) => void }) {
  const add = useAddStaff();
  const [setup, setSetup] = useState<Setup>('invite');
  const [errors, setErrors] = useState<AddErrors>({});
  const [formError, setFormError] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  const nameId = useId();
  const emailId = useId();
  const roleId = useId();

  const focusField = useFocusField(formRef);
  const focusFirstError = (found: AddErrors) => {
    const first = (['name', 'email', 'role', 'password'] as const).find((field) => found[field]);
    if (first) focusField(first);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(undefined);
    const form = new FormData(event.currentTarget);
    const values = {
      name: String(form.get('name') ?? ''),
      email: String(form.get('email') ?? ''),
      role: String(form.get('role') ?? ''),
      setup,
      ...(setup === 'password' ? { password: String(form.get('password') ?? '') } : {}),
    };
    const parsed = addStaffSchema.safeParse(values);
    const found: AddErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof AddErrors] ??= issue.message;
    }
    if (setup === 'password' && !found.password) {
      const problem = passwordRuleProblem(values.password ?? '', { email: values.email, name: values.name, companyName: company.name });
      if (problem) found.password = problem;
    }
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) {
      focusFirstError(found);
      return;
    }
    try {
      const result = await add.mutateAsync(parsed.data);
      onDone(
        result.linkExpiresAt
          ? `${result.staff.name} was added. A set-password link was e-mailed to ${result.staff.email}; it works once, until ${formatWhen(result.linkExpiresAt)}.`
          : `${result.staff.name} was added and can sign in with the password you set.`,
      );
    } catch (error) {
      const server: AddErrors = { email: fieldErrorOf(error, 'email'), password: fieldErrorOf(error, 'password') };
      setErrors(server);
      if (server.email || server.password) focusFirstError(server);
      else setFormError(messageOf(error));
    }
  }

  return (
    <section aria-labelledby={`${nameId}-title`} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h3 id={`${nameId}-title`} className="text-lg font-semibold text-slate-900">
        Add staff member
      </h3>
      <div aria-live="assertive">{formError ? <Alert className="mt-3">{formError}</Alert> : null}</div>
      <FieldErrorAnnouncement message={errors.name ?? errors.email ?? errors.role ?? errors.password} />
      <form ref={formRef} noValidate onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <FormField id={nameId} label="Name" error={errors.name} isRequired>
          <input id={nameId} name="name" autoComplete="off" required maxLength={120} className={controlClass} {...errorAttributes(nameId, errors.name)} />
        </FormField>
        <FormField id={emailId} label="Email" error={errors.email} isRequired>
          <input
            id={emailId}
            name="email"
            type="email"
            autoComplete="off"
            required
            maxLength={254}
            className={controlClass}
            {...errorAttributes(emailId, errors.email)}
          />
        </FormField>
        <FormField id={roleId} label="Role" error={errors.role} isRequired>
          <select id={roleId} name="role" defaultValue="dispatcher" className={controlClass} {...errorAttributes(roleId, errors.role)}>
            {staffRoles.map((role) => (
              <option key={role} value={role}>
                {staffRoleLabels[role]}: {roleDescriptions[role]}
              </option>
            ))}
          </select>
        </FormField>
        <SetupChoice
          value={setup}
          onChange={setSetup}
          legend="How will they get a password?"
          labels={{ invite: 'Send invite link (they choose it; the link works once, for 72 hours)', password: 'Set initial password' }}
        />
        {setup === 'password' ? (
          <div className="sm:col-span-2">
            <NewPasswordField name="password" label="Initial password" error={errors.password} disabled={add.isPending} />
          </div>
        ) : null}
        <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onDone()} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : setup === 'invite' ? 'Add and send invite link' : 'Add staff member'}
          </Button>
        </div>
      </form>
    </section>
  );
}

function SetupChoice({
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

function PendingDialog({ action, onClose, onDone }: { action: PendingAction; onClose: () => void; onDone: (message: string) => void }) {
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
    <Modal
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
    </Modal>
  );
}
