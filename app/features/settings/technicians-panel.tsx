import { useId, useRef, useState, type FormEvent } from 'react';
import { technicianPalette, type TechnicianSettingsItem } from '#shared/technician.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useAddTechnician, useTechnicianSettings, useUpdateTechnician } from './technicians-api.ts';

const hexPattern = /^#[0-9a-fA-F]{6}$/;

type FieldErrors = { name?: string; color?: string; form?: string };

/** The server's field messages (400/409 details), else its message as the form's error. */
function errorsFrom(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return { form: 'Something went wrong. Please try again.' };
  const fields = Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]) : [];
  const result: FieldErrors = {};
  for (const field of fields) {
    if (field.path === 'name' && field.message) result.name = field.message;
    else if (field.path === 'color' && field.message) result.color = field.message;
  }
  if (!result.name && !result.color) result.form = error.message;
  return result;
}

/**
 * A colour as two controls kept in step: the hex text (typed, pasted, read by screen readers) and the
 * browser's colour picker. Either one changes the value.
 */
function ColorInput({ value, onChange, error, label }: { value: string; onChange: (value: string) => void; error?: string; label: string }) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${hintId}${error ? ` ${errorId}` : ''}`}
          spellCheck={false}
          autoComplete="off"
          className="block w-32 rounded-md border border-slate-300 px-3 py-2 font-mono text-base shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:border-red-600"
        />
        <input
          type="color"
          aria-label={`${label}: colour picker`}
          value={hexPattern.test(value) ? value.toLowerCase() : '#000000'}
          onChange={(event) => onChange(event.target.value)}
          className="h-10 w-12 cursor-pointer rounded border border-slate-300 bg-white p-1"
        />
      </div>
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        As #rrggbb. The calendar shows the technician’s jobs in it (emergency and high priority keep red and orange).
      </p>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function NameInput({ value, onChange, error, label }: { value: string; onChange: (value: string) => void; error?: string; label: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={80}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:border-red-600"
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function checkForm(name: string, color: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!name.trim()) errors.name = 'Enter the technician’s name.';
  if (!hexPattern.test(color.trim())) errors.color = 'Choose a colour as #rrggbb, for example #2563eb.';
  return errors;
}

function AddTechnicianForm({ usedColors, onAdded }: { usedColors: string[]; onAdded: (message: string) => void }) {
  const add = useAddTechnician();
  const firstFree = technicianPalette.find((color) => !usedColors.includes(color)) ?? technicianPalette[0];
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>(firstFree);
  const [errors, setErrors] = useState<FieldErrors>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = checkForm(name, color);
    setErrors(problems);
    if (problems.name || problems.color) return;
    try {
      const { technician } = await add.mutateAsync({ name, color });
      setName('');
      setColor(technicianPalette.find((candidate) => candidate !== technician.color && !usedColors.includes(candidate)) ?? technicianPalette[0]);
      onAdded(`${technician.name} was added.`);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-technician-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="add-technician-title" className="text-lg font-semibold text-slate-900">
        Add a technician
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <NameInput label="Name" value={name} onChange={setName} error={errors.name} />
        <ColorInput label="Colour" value={color} onChange={setColor} error={errors.color} />
      </div>
      {errors.form ? <Alert>{errors.form}</Alert> : null}
      <Button type="submit" disabled={add.isPending}>
        {add.isPending ? 'Adding…' : 'Add technician'}
      </Button>
    </form>
  );
}

function TechnicianRow({ technician, onMessage }: { technician: TechnicianSettingsItem; onMessage: (message: string) => void }) {
  const update = useUpdateTechnician();
  const [isEditing, setIsEditing] = useState(false);
  const [name, setName] = useState(technician.name);
  const [color, setColor] = useState(technician.color);
  const [errors, setErrors] = useState<FieldErrors>({});

  function startEditing() {
    setName(technician.name);
    setColor(technician.color);
    setErrors({});
    setIsEditing(true);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const problems = checkForm(name, color);
    setErrors(problems);
    if (problems.name || problems.color) return;
    try {
      const { technician: saved } = await update.mutateAsync({ id: technician.id, name, color });
      setIsEditing(false);
      onMessage(`${saved.name} was saved.`);
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  // Deactivating a technician who signs in to the technician app ends that sign-in too (decision
  // 022-a, "Later"): the admin is told and confirms first.
  const [isConfirming, setIsConfirming] = useState(false);
  const confirmId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  async function toggleActive() {
    setErrors({});
    setIsConfirming(false);
    try {
      const { technician: saved } = await update.mutateAsync({ id: technician.id, active: !technician.active });
      const account = saved.accountEmail;
      onMessage(
        saved.active
          ? `${saved.name} is active again and can be chosen for new work.${account ? ` They can sign in to the technician app again (${account}).` : ''}`
          : `${saved.name} was deactivated: no longer offered for new work, still shown on the orders they have.${
              account ? ` Their technician app sign-in (${account}) was signed out and stays refused while they are inactive.` : ''
            }`,
      );
    } catch (error) {
      setErrors(errorsFrom(error));
    }
  }

  if (isEditing) {
    return (
      <li className="rounded-lg border border-brand-100 bg-white p-4 shadow-sm">
        <form onSubmit={save} noValidate aria-label={`Edit ${technician.name}`} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <NameInput label="Name" value={name} onChange={setName} error={errors.name} />
            <ColorInput label="Colour" value={color} onChange={setColor} error={errors.color} />
          </div>
          {errors.form ? <Alert>{errors.form}</Alert> : null}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save'}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setIsEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      </li>
    );
  }

  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-label={technician.name}>
      <span aria-hidden="true" className="inline-block size-6 shrink-0 rounded-full ring-1 ring-slate-300" style={{ backgroundColor: technician.color }} />
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-slate-900">{technician.name}</p>
        <p className="text-sm text-slate-600">
          <span className="font-mono">{technician.color}</span> ·{' '}
          {technician.openWorkOrders === 1 ? '1 open work order' : `${technician.openWorkOrders} open work orders`}
        </p>
        {technician.accountEmail ? (
          <p className="text-sm text-slate-600">
            Technician app sign-in: <span className="font-medium text-slate-800">{technician.accountEmail}</span>
            {technician.active ? null : ' (refused while inactive)'}
          </p>
        ) : null}
      </div>
      <Badge tone={technician.active ? 'success' : 'neutral'}>{technician.active ? 'Active' : 'Inactive'}</Badge>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={startEditing} aria-label={`Edit ${technician.name}`}>
          Edit
        </Button>
        <Button
          variant={technician.active ? 'danger' : 'secondary'}
          size="sm"
          onClick={() => (technician.active && technician.accountEmail ? setIsConfirming(true) : void toggleActive())}
          disabled={update.isPending}
          ref={toggleRef}
          aria-label={`${technician.active ? 'Deactivate' : 'Activate'} ${technician.name}`}
        >
          {technician.active ? 'Deactivate' : 'Activate'}
        </Button>
      </div>
      {isConfirming ? (
        <div role="alertdialog" aria-labelledby={confirmId} className="w-full rounded-md border border-amber-300 bg-amber-50 p-3">
          <p id={confirmId} className="text-slate-900">
            {technician.name} signs in to the technician app as {technician.accountEmail}. Deactivating signs them out on every device and refuses that
            sign-in until they are active again.
          </p>
          <div className="mt-2 flex gap-2">
            <Button variant="danger" size="sm" onClick={() => void toggleActive()} disabled={update.isPending}>
              Deactivate and sign out
            </Button>
            <Button
              variant="secondary"
              size="sm"
              autoFocus
              onClick={() => {
                setIsConfirming(false);
                toggleRef.current?.focus();
              }}
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
      {errors.form || errors.name ? <Alert className="w-full">{errors.form ?? errors.name}</Alert> : null}
    </li>
  );
}

/** Settings: technicians (issue 10): add, rename, colour, activate/deactivate. */
export function TechniciansPanel() {
  const technicians = useTechnicianSettings();
  const [message, setMessage] = useState('');
  const list = technicians.data?.technicians ?? [];

  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-slate-700">
        Technicians are the people jobs are assigned to. Their colour marks their jobs on the calendar. A deactivated technician is no
        longer offered for new work but stays on the work orders they already have.
      </p>
      <div aria-live="polite">{message ? <Alert tone="success">{message}</Alert> : null}</div>
      <AddTechnicianForm usedColors={list.filter((technician) => technician.active).map((technician) => technician.color)} onAdded={setMessage} />
      <section aria-labelledby="technician-list-title" className="space-y-3">
        <h2 id="technician-list-title" className="text-lg font-semibold text-slate-900">
          Technicians
        </h2>
        {technicians.isPending ? (
          <p role="status" className="text-slate-600">
            Loading technicians…
          </p>
        ) : technicians.isError ? (
          <Alert>
            Could not load the technicians: {technicians.error.message}{' '}
            <Button variant="secondary" size="sm" onClick={() => void technicians.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : list.length === 0 ? (
          <p className="text-slate-600">No technicians yet. Add the first one above.</p>
        ) : (
          <ul className="space-y-2">
            {list.map((technician) => (
              <TechnicianRow key={technician.id} technician={technician} onMessage={setMessage} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
