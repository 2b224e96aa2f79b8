import type { StaffAccount } from '#shared/auth.ts';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { useTechnicianSettings } from './technicians-api.ts';

// Settings > Staff (issue 19): a technician account is one technician record. The select offers
// the active technicians; one already linked to another account is shown but disabled, with whose
// it is. The server checks the same rules (staff service: active, not another account's).

/** A technician's colour and name, as the calendar shows them. */
export function TechnicianSwatch({ technician }: { technician: { name: string; color: string } }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span aria-hidden="true" className="inline-block size-3 shrink-0 rounded-full ring-1 ring-slate-300" style={{ backgroundColor: technician.color }} />
      {technician.name}
    </span>
  );
}

export function TechnicianSelect({
  id,
  value,
  onChange,
  error,
  accounts,
  self,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (technicianId: string) => void;
  error?: string;
  /** The staff accounts, to mark the technicians already linked. */
  accounts: StaffAccount[];
  /** The account being changed: its own technician stays choosable. */
  self?: string;
  disabled?: boolean;
}) {
  const technicians = useTechnicianSettings();
  const linkedTo = new Map(accounts.filter((account) => account.technicianId && account.id !== self).map((account) => [account.technicianId!, account]));
  const active = technicians.data?.technicians.filter((technician) => technician.active) ?? [];
  const chosen = active.find((technician) => technician.id === value);
  const loadProblem = technicians.isError ? 'The technicians could not be loaded. Close and try again.' : undefined;
  const shownError = error ?? loadProblem;
  return (
    <FormField id={id} label="Technician" error={shownError} isRequired hint="(the calendar's name and colour carry over)">
      <div className="flex items-center gap-2">
        <select
          id={id}
          name="technicianId"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          // Not disabled while the list loads: a refusal must still be able to move the focus here.
          disabled={disabled}
          aria-busy={technicians.isPending}
          required
          className={controlClass}
          {...errorAttributes(id, shownError)}
        >
          <option value="">{technicians.isPending ? 'Loading technicians...' : 'Choose the technician'}</option>
          {active.map((technician) => {
            const holder = linkedTo.get(technician.id);
            return (
              <option key={technician.id} value={technician.id} disabled={holder !== undefined}>
                {holder ? `${technician.name} (already ${holder.name}'s account)` : technician.name}
              </option>
            );
          })}
        </select>
        {chosen ? (
          <span aria-hidden="true" className="mt-1 inline-block size-6 shrink-0 rounded-full ring-1 ring-slate-300" style={{ backgroundColor: chosen.color }} />
        ) : null}
      </div>
      {!technicians.isPending && !technicians.isError && active.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">There is no active technician yet: add one under Settings → Technicians first.</p>
      ) : null}
    </FormField>
  );
}
