import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { addStaffSchema, passwordRuleProblem, staffMessages, type StaffAccount } from '#shared/auth.ts';
import { staffRoles, type StaffRole } from '#shared/enums.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { FieldErrorAnnouncement, NewPasswordField, useFocusField } from '#client/features/account/index.ts';
import { sessionQuery } from '#client/features/auth/index.ts';
import { company } from '#client/lib/company.ts';
import { fieldErrorOf, messageOf, useAddStaff, useStaffList } from './staff-api.ts';
import { PendingDialog, roleDescriptions, SetupChoice, staffRoleLabels, type PendingAction, type Setup } from './staff-dialogs.tsx';
import { TechnicianSelect, TechnicianSwatch } from './staff-technician.tsx';

export { staffRoleLabels };

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatWhen = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : 'Never');

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
            Administrators can do everything; dispatchers everything except staff accounts and settings; technicians use the
            technician app for their own visits. Deactivating an account signs that person out everywhere at once.
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
          accounts={staff.data?.staff ?? []}
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

      {pending ? <PendingDialog action={pending} accounts={staff.data?.staff ?? []} onClose={() => setPending(undefined)} onDone={setStatus} /> : null}
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
        {account.role === 'technician' ? (
          <p className="mt-1 text-sm text-slate-700">
            {account.technician ? (
              <>
                Technician: <TechnicianSwatch technician={account.technician} />
                {account.technician.active ? null : <span className="text-slate-600"> (inactive technician)</span>}
              </>
            ) : (
              <span className="font-medium text-amber-800">Not linked to a technician: change the role to choose one.</span>
            )}
          </p>
        ) : null}
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
                Change role
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

type AddErrors = Partial<Record<'name' | 'email' | 'role' | 'technicianId' | 'password', string>>;

function AddStaffForm({ accounts, onDone }: { accounts: StaffAccount[]; onDone: (message?: string) => void }) {
  const add = useAddStaff();
  const [setup, setSetup] = useState<Setup>('invite');
  const [role, setRole] = useState<StaffRole>('dispatcher');
  const [technicianId, setTechnicianId] = useState('');
  const technicianFieldId = useId();
  const [errors, setErrors] = useState<AddErrors>({});
  const [formError, setFormError] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  const nameId = useId();
  const emailId = useId();
  const roleId = useId();

  const focusField = useFocusField(formRef);
  const focusFirstError = (found: AddErrors) => {
    const first = (['name', 'email', 'role', 'technicianId', 'password'] as const).find((field) => found[field]);
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
      ...(role === 'technician' ? { technicianId: technicianId || null } : {}),
      setup,
      ...(setup === 'password' ? { password: String(form.get('password') ?? '') } : {}),
    };
    const parsed = addStaffSchema.safeParse(values);
    const found: AddErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof AddErrors] ??= issue.message;
    }
    if (role === 'technician' && !technicianId) found.technicianId = staffMessages.technicianRequired;
    if (setup === 'password' && !found.password) {
      const problem = passwordRuleProblem(values.password ?? '', { email: values.email, name: values.name, companyName: company.name });
      if (problem) found.password = problem;
    }
    setErrors(found);
    if (!parsed.success || Object.values(found).some(Boolean)) {
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
      const server: AddErrors = {
        email: fieldErrorOf(error, 'email'),
        technicianId: fieldErrorOf(error, 'technicianId'),
        password: fieldErrorOf(error, 'password'),
      };
      setErrors(server);
      if (server.email || server.technicianId || server.password) focusFirstError(server);
      else setFormError(messageOf(error));
    }
  }

  return (
    <section aria-labelledby={`${nameId}-title`} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h3 id={`${nameId}-title`} className="text-lg font-semibold text-slate-900">
        Add staff member
      </h3>
      <div aria-live="assertive">{formError ? <Alert className="mt-3">{formError}</Alert> : null}</div>
      <FieldErrorAnnouncement message={errors.name ?? errors.email ?? errors.role ?? errors.technicianId ?? errors.password} />
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
          <select
            id={roleId}
            name="role"
            value={role}
            onChange={(event) => setRole(event.target.value as StaffRole)}
            className={controlClass}
            {...errorAttributes(roleId, errors.role)}
          >
            {staffRoles.map((role) => (
              <option key={role} value={role}>
                {staffRoleLabels[role]}: {roleDescriptions[role]}
              </option>
            ))}
          </select>
        </FormField>
        {role === 'technician' ? (
          <TechnicianSelect
            id={technicianFieldId}
            value={technicianId}
            onChange={setTechnicianId}
            error={errors.technicianId}
            accounts={accounts}
            disabled={add.isPending}
          />
        ) : null}
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
