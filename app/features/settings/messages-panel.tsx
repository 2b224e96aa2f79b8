import { useId, useState, type FormEvent } from 'react';
import { messageTypeLabels, messageTypes, messagingSettingsSchema, type MessagingSettings } from '#shared/messaging.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClassName } from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { useMessageTemplates, useMessagingSettings, useSaveMessagingSettings } from '#client/features/messaging/index.ts';
import { MessageTemplateEditor } from './message-template-editor.tsx';
import { fieldErrorOf, messageOf } from './staff-api.ts';

/**
 * Settings: Messages (issue 18). When reminders go out and the quiet hours for texts, then one
 * section per message type with its template, live preview and test send.
 */
export function MessagesPanel() {
  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-slate-700">
        Customers get these messages by e-mail and, when they agreed to texts, by text message: when a visit is booked, moved or cancelled, a
        reminder before it, when the technician is on the way, and after the visit.
      </p>
      <MessagingSettingsCard />
      <TemplatesList />
    </div>
  );
}

type SettingsForm = { reminderLeadHours: string; quietStart: string; quietEnd: string };
type SettingsErrors = Partial<Record<keyof SettingsForm, string>>;

function MessagingSettingsCard() {
  const settings = useMessagingSettings();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={cardClassName('p-4 sm:p-6')}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Reminders and quiet hours
      </h2>
      {settings.isPending ? (
        <p role="status" className="mt-3 text-slate-600">
          Loading the messaging settings…
        </p>
      ) : settings.isError ? (
        <Alert className="mt-3">
          Could not load the messaging settings: {messageOf(settings.error)}{' '}
          <Button variant="secondary" size="sm" onClick={() => void settings.refetch()} disabled={settings.isFetching}>
            Try again
          </Button>
        </Alert>
      ) : (
        <MessagingSettingsForm initial={settings.data.settings} />
      )}
    </section>
  );
}

function MessagingSettingsForm({ initial }: { initial: MessagingSettings }) {
  const save = useSaveMessagingSettings();
  const [values, setValues] = useState<SettingsForm>({
    reminderLeadHours: String(initial.reminderLeadHours),
    quietStart: initial.quietStart,
    quietEnd: initial.quietEnd,
  });
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string }>();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    const parsed = messagingSettingsSchema.safeParse({ ...values, reminderLeadHours: Number(values.reminderLeadHours) });
    if (!parsed.success) {
      const found: SettingsErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof SettingsForm;
        found[field] ??=
          field === 'reminderLeadHours' ? 'Enter a whole number of hours from 1 to 168.' : 'Enter a time such as 21:00.';
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => setNotice({ tone: 'success', text: 'Messaging settings saved. New reminders are planned with them.' }),
      onError: (error) => {
        setErrors({
          reminderLeadHours: fieldErrorOf(error, 'reminderLeadHours'),
          quietStart: fieldErrorOf(error, 'quietStart'),
          quietEnd: fieldErrorOf(error, 'quietEnd'),
        });
        setNotice({ tone: 'error', text: `Could not save: ${messageOf(error)}` });
      },
    });
  }

  const set = (field: keyof SettingsForm) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reminders and quiet hours" className="mt-4 space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label="Reminder, hours before the visit"
          type="number"
          inputMode="numeric"
          min={1}
          max={168}
          step={1}
          value={values.reminderLeadHours}
          onChange={set('reminderLeadHours')}
          error={errors.reminderLeadHours}
        />
        <Field label="No texts from" hint="Company time" type="time" value={values.quietStart} onChange={set('quietStart')} error={errors.quietStart} />
        <Field label="No texts until" hint="A text due then waits until this time" type="time" value={values.quietEnd} onChange={set('quietEnd')} error={errors.quietEnd} />
      </div>
      <div aria-live="polite">{notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}</div>
      <div aria-live="assertive">{notice?.tone === 'error' ? <Alert>{notice.text}</Alert> : null}</div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save settings'}
      </Button>
    </form>
  );
}

function TemplatesList() {
  const templates = useMessageTemplates();
  const titleId = useId();
  if (templates.isPending) {
    return (
      <p role="status" className="text-slate-600">
        Loading the message templates…
      </p>
    );
  }
  if (templates.isError) {
    return (
      <Alert>
        Could not load the message templates: {messageOf(templates.error)}{' '}
        <Button variant="secondary" size="sm" onClick={() => void templates.refetch()} disabled={templates.isFetching}>
          Try again
        </Button>
      </Alert>
    );
  }
  const { variables } = templates.data;
  const byType = new Map(templates.data.templates.map((template) => [template.type, template]));
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Message templates
      </h2>
      <p className="max-w-3xl text-sm text-slate-600">
        Open a message to edit it. Variables such as {'{{customer.firstName}}'} are filled in for each customer; the preview uses sample values.
      </p>
      {messageTypes.map((type) => {
        const template = byType.get(type);
        if (!template) return null;
        return (
          <details key={type} className={cardClassName('p-0')}>
            <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-4 py-3 font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-6">
              <span>{messageTypeLabels[type]}</span>
              {template.isDefault ? null : <Badge tone="primary">Edited</Badge>}
            </summary>
            <section aria-label={`${messageTypeLabels[type]} template`} className="border-t border-slate-200 p-4 sm:p-6">
              <MessageTemplateEditor template={template} variables={variables} />
            </section>
          </details>
        );
      })}
    </section>
  );
}
