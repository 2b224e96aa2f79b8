import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  billingSettingsMessages,
  parseReminderDays,
  parseTaxRatePercent,
  type BillingSettingsInput,
  type BillingSettingsPage,
  type BillingSettingsResponse,
  type TaxRate,
  type TaxRateInput,
} from '#shared/billing-settings.ts';
import { formatTaxRate } from '#shared/money.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/form-field.tsx';
import { apiFetch, fieldErrorOf, messageOf } from '#client/lib/api.ts';

const billingKey = ['settings', 'billing'] as const;

function useBillingPage() {
  return useQuery({ queryKey: billingKey, queryFn: ({ signal }) => apiFetch<BillingSettingsPage>('/api/admin/settings/billing', { signal }) });
}

function useInvalidateBilling() {
  const queryClient = useQueryClient();
  // The editors' tax-rate list (GET /api/admin/tax-rates) too.
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: billingKey }), queryClient.invalidateQueries({ queryKey: ['tax-rates'] })]);
}

/** "7" from 70000 ppm, for an input. */
const percentText = (ratePpm: number) => formatTaxRate(ratePpm).replace('%', '');

function TermsForm({ page }: { page: BillingSettingsPage }) {
  const id = useId();
  const invalidate = useInvalidateBilling();
  const save = useMutation({
    mutationFn: (body: BillingSettingsInput) => apiFetch<BillingSettingsResponse>('/api/admin/settings/billing', { method: 'PUT', body }),
    onSuccess: invalidate,
  });
  const [terms, setTerms] = useState(String(page.settings.paymentTermsDays));
  const [validity, setValidity] = useState(String(page.settings.quoteValidityDays));
  const [footer, setFooter] = useState(page.settings.invoiceFooter);
  const [reminders, setReminders] = useState(page.settings.remindersEnabled);
  const [reminderDays, setReminderDays] = useState(page.settings.reminderDays.join(', '));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const days = parseReminderDays(reminderDays);
    const problems: Record<string, string | undefined> = {};
    if (!/^\d{1,3}$/.test(terms.trim()) || Number(terms) > 365) problems.paymentTermsDays = billingSettingsMessages.termsInvalid;
    if (!/^\d{1,3}$/.test(validity.trim()) || Number(validity) < 1 || Number(validity) > 365) problems.quoteValidityDays = billingSettingsMessages.validityInvalid;
    if (!days) problems.reminderDays = billingSettingsMessages.reminderDaysInvalid;
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    try {
      const answer = await save.mutateAsync({
        paymentTermsDays: Number(terms),
        quoteValidityDays: Number(validity),
        invoiceFooter: footer,
        remindersEnabled: reminders,
        reminderDays: days!,
      });
      // As stored: the footer trimmed, the days in order.
      setFooter(answer.settings.invoiceFooter);
      setReminderDays(answer.settings.reminderDays.join(', '));
      setSaved(true);
    } catch (error) {
      setErrors({
        paymentTermsDays: fieldErrorOf(error, 'paymentTermsDays'),
        quoteValidityDays: fieldErrorOf(error, 'quoteValidityDays'),
        invoiceFooter: fieldErrorOf(error, 'invoiceFooter'),
        reminderDays: fieldErrorOf(error, 'reminderDays'),
        form: messageOf(error),
      });
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        Invoices and quotes
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={`${id}-terms`} label="Payment terms (days)" hint="(0 = due on receipt)" error={errors.paymentTermsDays}>
          <input id={`${id}-terms`} inputMode="numeric" value={terms} onChange={(event) => setTerms(event.target.value)} className={controlClass} {...errorAttributes(`${id}-terms`, errors.paymentTermsDays)} />
        </FormField>
        <FormField id={`${id}-validity`} label="Quotes valid for (days)" error={errors.quoteValidityDays}>
          <input id={`${id}-validity`} inputMode="numeric" value={validity} onChange={(event) => setValidity(event.target.value)} className={controlClass} {...errorAttributes(`${id}-validity`, errors.quoteValidityDays)} />
        </FormField>
        <FormField id={`${id}-footer`} label="Invoice footer" hint="(how to pay by check or transfer)" error={errors.invoiceFooter} className="sm:col-span-2">
          <textarea id={`${id}-footer`} rows={3} maxLength={2000} value={footer} onChange={(event) => setFooter(event.target.value)} className={controlClass} {...errorAttributes(`${id}-footer`, errors.invoiceFooter)} />
        </FormField>
        <label className="flex items-center gap-2 text-sm text-slate-800 sm:col-span-2">
          <input type="checkbox" checked={reminders} onChange={(event) => setReminders(event.target.checked)} className="h-5 w-5" />
          Send overdue reminders
        </label>
        <FormField id={`${id}-days`} label="Reminder days after the due date" hint="(e.g. 7, 14, 30)" error={errors.reminderDays}>
          <input id={`${id}-days`} value={reminderDays} disabled={!reminders} onChange={(event) => setReminderDays(event.target.value)} className={controlClass} {...errorAttributes(`${id}-days`, errors.reminderDays)} />
        </FormField>
      </div>
      <div aria-live="polite">
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        {saved ? <Alert tone="success">Billing settings saved.</Alert> : null}
      </div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save billing settings'}
      </Button>
    </form>
  );
}

function TaxRateForm({ rate, onDone }: { rate?: TaxRate; onDone: (message: string) => void }) {
  const id = useId();
  const invalidate = useInvalidateBilling();
  const save = useMutation({
    mutationFn: (body: TaxRateInput) =>
      rate ? apiFetch(`/api/admin/settings/tax-rates/${rate.id}`, { method: 'PUT', body }) : apiFetch('/api/admin/settings/tax-rates', { method: 'POST', body }),
    onSuccess: invalidate,
  });
  const [name, setName] = useState(rate?.name ?? '');
  const [percent, setPercent] = useState(rate ? percentText(rate.ratePpm) : '');
  const [isDefault, setIsDefault] = useState(rate?.isDefault ?? false);
  const [active, setActive] = useState(rate?.active ?? true);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const ratePpm = parseTaxRatePercent(percent);
    const problems = {
      name: name.trim() ? undefined : billingSettingsMessages.taxNameRequired,
      rate: ratePpm === undefined ? billingSettingsMessages.taxRateInvalid : undefined,
    };
    setErrors(problems);
    if (problems.name || problems.rate) return;
    try {
      await save.mutateAsync({ name, ratePpm: ratePpm!, isDefault, active });
      if (!rate) {
        setName('');
        setPercent('');
        setIsDefault(false);
      }
      onDone(`${name.trim()} was saved.`);
    } catch (error) {
      setErrors({ name: fieldErrorOf(error, 'name'), rate: fieldErrorOf(error, 'ratePpm'), form: messageOf(error) });
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={rate ? `Edit ${rate.name}` : 'Add a tax rate'} className="grid items-end gap-3 sm:grid-cols-[2fr_1fr_auto_auto_auto]">
      <FormField id={`${id}-name`} label="Name" error={errors.name}>
        <input id={`${id}-name`} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} className={controlClass} {...errorAttributes(`${id}-name`, errors.name)} />
      </FormField>
      <FormField id={`${id}-rate`} label="Rate (%)" error={errors.rate}>
        <input id={`${id}-rate`} inputMode="decimal" value={percent} onChange={(event) => setPercent(event.target.value)} className={controlClass} {...errorAttributes(`${id}-rate`, errors.rate)} />
      </FormField>
      <label className="flex items-center gap-2 pb-2 text-sm text-slate-800">
        <input type="checkbox" checked={isDefault} onChange={(event) => setIsDefault(event.target.checked)} className="h-5 w-5" />
        Default
      </label>
      <label className="flex items-center gap-2 pb-2 text-sm text-slate-800">
        <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} className="h-5 w-5" />
        Active
      </label>
      <Button type="submit" variant={rate ? 'secondary' : 'primary'} disabled={save.isPending}>
        {rate ? 'Save' : 'Add rate'}
      </Button>
      {errors.form ? <Alert className="sm:col-span-5">{errors.form}</Alert> : null}
    </form>
  );
}

/**
 * Settings -> Billing (issue 20, decision 024-f): payment terms, quote validity, invoice footer,
 * overdue reminders, and the sales tax rates the quote and invoice editors offer.
 */
export function BillingPanel() {
  const page = useBillingPage();
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  if (page.isPending) return <p role="status">Loading billing settings…</p>;
  if (page.isError) return <Alert>Could not load billing settings: {messageOf(page.error)}</Alert>;
  return (
    <div className="space-y-6">
      <TermsForm page={page.data} />
      <section aria-labelledby="tax-rates-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="tax-rates-title" className="text-lg font-semibold text-slate-900">
          Sales tax rates
        </h2>
        <p className="text-sm text-slate-700">
          Taxable lines (parts and equipment by default) are taxed at the rate chosen on the quote or invoice; the default rate is preselected.
          Your accountant confirms which rate and which items are taxable.
        </p>
        <p role="status" className="text-sm text-green-800">
          {message ?? ''}
        </p>
        <ul className="divide-y divide-slate-200">
          {page.data.taxRates.map((rate) => (
            <li key={rate.id} className="py-3">
              {editing === rate.id ? (
                <TaxRateForm
                  rate={rate}
                  onDone={(text) => {
                    setEditing(undefined);
                    setMessage(text);
                  }}
                />
              ) : (
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900">{rate.name}</span>
                    <span className="text-slate-700">{formatTaxRate(rate.ratePpm)}</span>
                    {rate.isDefault ? <Badge tone="primary">Default</Badge> : null}
                    {rate.active ? null : <Badge>Inactive</Badge>}
                  </div>
                  <Button size="sm" variant="secondary" onClick={() => setEditing(rate.id)} aria-label={`Edit ${rate.name}`}>
                    Edit
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
        <h3 className="font-semibold text-slate-900">Add a tax rate</h3>
        <TaxRateForm onDone={setMessage} />
      </section>
    </div>
  );
}
