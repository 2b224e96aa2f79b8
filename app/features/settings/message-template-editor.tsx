import { useId, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { messageChannelLabels, messageTypeLabels, templateProblems, type MessageChannel, type MessageTemplate, type StoredMessageTemplate } from '#shared/messaging.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/dialog.tsx';
import { controlClass, errorAttributes, FormField } from '#client/components/ui/field.tsx';
import { sessionQuery } from '#client/features/auth/index.ts';
import { useRestoreMessageTemplate, useSaveMessageTemplate, useSendTestMessage, type MessageTemplateListResponse } from '#client/features/messaging/index.ts';
import { MessagePreview } from './message-preview.tsx';
import { fieldErrorOf, messageOf } from './staff-api.ts';

type TemplateField = keyof MessageTemplate;
type Variable = MessageTemplateListResponse['variables'][number];

const fieldLabels: Record<TemplateField, string> = { subject: 'Subject', emailBody: 'E-mail body', smsBody: 'Text body' };
const fieldLimits: Record<TemplateField, number> = { subject: 200, emailBody: 5000, smsBody: 600 };
const templateFields: readonly TemplateField[] = ['subject', 'emailBody', 'smsBody'];

/** A field's problems as the server would state them: empty, too long, unknown variables, unclosed braces. */
export function templateFieldError(field: TemplateField, value: string): string | undefined {
  const text = value.trim();
  if (text === '') return `${fieldLabels[field]} is required.`;
  if (text.length > fieldLimits[field]) return `${fieldLabels[field]} is too long (${text.length} of ${fieldLimits[field]} characters).`;
  return templateProblems(text).join(' ') || undefined;
}

type Notice = { tone: 'success' | 'error'; text: string };

/**
 * One message type's template (issue 18): subject, e-mail body and text body, buttons that insert
 * a variable at the cursor of the field last used, the live preview, the problems as field errors
 * while typing, Save, "Restore default" for an edited one, and "Send me a test".
 */
export function MessageTemplateEditor({ template, variables }: { template: StoredMessageTemplate; variables: readonly Variable[] }) {
  const id = useId();
  const label = messageTypeLabels[template.type];
  const [values, setValues] = useState<MessageTemplate>({ subject: template.subject, emailBody: template.emailBody, smsBody: template.smsBody });
  const [activeField, setActiveField] = useState<TemplateField>('emailBody');
  const [notice, setNotice] = useState<Notice>();
  const [isConfirmingRestore, setIsConfirmingRestore] = useState(false);
  const subjectRef = useRef<HTMLInputElement>(null);
  const emailBodyRef = useRef<HTMLTextAreaElement>(null);
  const smsBodyRef = useRef<HTMLTextAreaElement>(null);
  /** For event handlers only (the refs are not read while rendering). */
  const elementOf = (field: TemplateField): HTMLInputElement | HTMLTextAreaElement | null =>
    ({ subject: subjectRef, emailBody: emailBodyRef, smsBody: smsBodyRef })[field].current;
  const save = useSaveMessageTemplate(template.type);
  const restore = useRestoreMessageTemplate(template.type);
  const errors = Object.fromEntries(
    templateFields.map((field) => [field, templateFieldError(field, values[field]) ?? fieldErrorOf(save.error, field)]),
  ) as Record<TemplateField, string | undefined>;
  const hasProblems = templateFields.some((field) => errors[field]);
  const isDirty = templateFields.some((field) => values[field] !== template[field]);

  function change(field: TemplateField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (save.isError) save.reset();
  }

  /** Puts `{{name}}` where the cursor is (or over the selection) in the field last used, then returns the focus there. */
  function insertVariable(name: string) {
    const field = activeField;
    const element = elementOf(field);
    const current = values[field];
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? start;
    const token = `{{${name}}}`;
    change(field, current.slice(0, start) + token + current.slice(end));
    const caret = start + token.length;
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(caret, caret);
    });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    if (hasProblems) {
      const first = templateFields.find((field) => errors[field]);
      if (first) elementOf(first)?.focus();
      setNotice({ tone: 'error', text: 'The template has problems; see the fields marked in red.' });
      return;
    }
    save.mutate(values, {
      onSuccess: () => setNotice({ tone: 'success', text: `${label} saved. New messages use it.` }),
      onError: (error) => setNotice({ tone: 'error', text: `Could not save: ${messageOf(error)}` }),
    });
  }

  function onRestore() {
    setNotice(undefined);
    restore.mutate(undefined, {
      onSuccess: ({ template: restored }) => {
        setIsConfirmingRestore(false);
        setValues({ subject: restored.subject, emailBody: restored.emailBody, smsBody: restored.smsBody });
        save.reset();
        setNotice({ tone: 'success', text: `${label} is back to the built-in default.` });
      },
      onError: (error) => {
        setIsConfirmingRestore(false);
        setNotice({ tone: 'error', text: `Could not restore the default: ${messageOf(error)}` });
      },
    });
  }

  const control = (field: TemplateField) => ({
    id: `${id}-${field}`,
    value: values[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
    onFocus: () => setActiveField(field),
    ...errorAttributes(`${id}-${field}`, errors[field]),
    className: controlClass,
  });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={template.isDefault ? 'neutral' : 'primary'}>{template.isDefault ? 'Built-in default' : 'Edited'}</Badge>
        {isDirty ? <Badge tone="warning">Unsaved changes</Badge> : null}
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField id={`${id}-subject`} label="Subject" error={errors.subject} isRequired>
          <input ref={subjectRef} type="text" required {...control('subject')} />
        </FormField>
        <FormField id={`${id}-emailBody`} label="E-mail body" error={errors.emailBody} isRequired>
          <textarea ref={emailBodyRef} rows={8} required {...control('emailBody')} />
        </FormField>
        <FormField id={`${id}-smsBody`} label="Text body" hint="(“Reply STOP to opt out.” is added)" error={errors.smsBody} isRequired>
          <textarea ref={smsBodyRef} rows={3} required {...control('smsBody')} />
        </FormField>

        <div role="group" aria-labelledby={`${id}-variables`} className="space-y-2">
          <p id={`${id}-variables`} className="text-sm font-medium text-slate-800">
            Insert a variable into the {fieldLabels[activeField].toLowerCase()}
          </p>
          <div className="flex flex-wrap gap-2">
            {variables.map((variable) => (
              <Button key={variable.name} variant="secondary" size="sm" onClick={() => insertVariable(variable.name)} title={`Sample: ${variable.sample}`}>
                {variable.label}
                <code className="text-xs font-normal text-slate-600">{`{{${variable.name}}}`}</code>
              </Button>
            ))}
          </div>
        </div>

        <MessagePreview template={values} />

        <div aria-live="polite">{notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}</div>
        <div aria-live="assertive">{notice?.tone === 'error' ? <Alert>{notice.text}</Alert> : null}</div>

        <div className="flex flex-col gap-3 sm:flex-row">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save template'}
          </Button>
          {!template.isDefault ? (
            <Button variant="danger" onClick={() => setIsConfirmingRestore(true)} disabled={restore.isPending}>
              Restore default
            </Button>
          ) : null}
        </div>
      </form>

      <TestMessageForm type={template.type} label={label} draft={values} hasProblems={hasProblems} />

      {isConfirmingRestore ? (
        <ConfirmDialog
          title={`Restore the default ${label.toLowerCase()}?`}
          message="The edited subject and bodies are replaced by the built-in template."
          confirmLabel="Restore default"
          pendingLabel="Restoring..."
          isPending={restore.isPending}
          onConfirm={onRestore}
          onCancel={() => setIsConfirmingRestore(false)}
        />
      ) : null}
    </div>
  );
}

/** "Send me a test": the template as it is in the editor (saved or not) with the sample values, to an address or phone (the signed-in user's e-mail by default). */
function TestMessageForm({ type, label, draft, hasProblems }: { type: StoredMessageTemplate['type']; label: string; draft: MessageTemplate; hasProblems: boolean }) {
  const id = useId();
  const session = useQuery(sessionQuery);
  const ownEmail = session.data?.user.email ?? '';
  const [channel, setChannel] = useState<MessageChannel>('email');
  const [to, setTo] = useState<string>();
  const [error, setError] = useState<string>();
  const send = useSendTestMessage(type);
  const recipient = to ?? (channel === 'email' ? ownEmail : '');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    send.reset();
    if (recipient.trim() === '') {
      setError(channel === 'email' ? 'Enter the e-mail address to send the test to.' : 'Enter the mobile number to send the test to.');
      return;
    }
    if (hasProblems) {
      setError('Fix the template above before sending a test.');
      return;
    }
    setError(undefined);
    send.mutate({ ...draft, channel, to: recipient.trim() });
  }

  const fieldError = error ?? fieldErrorOf(send.error, 'to');
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Send a test of the ${label.toLowerCase()}`} className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <p className="text-sm font-semibold text-slate-900">Send me a test</p>
      <p className="text-sm text-slate-600">
        Sends the template as it is above, saved or not, filled with the sample values.
      </p>
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
        <FormField id={`${id}-channel`} label="Send by">
          <select
            id={`${id}-channel`}
            value={channel}
            onChange={(event) => {
              setChannel(event.target.value as MessageChannel);
              setTo(undefined);
              setError(undefined);
              send.reset();
            }}
            className={controlClass}
          >
            <option value="email">{messageChannelLabels.email}</option>
            <option value="sms">{messageChannelLabels.sms}</option>
          </select>
        </FormField>
        <FormField id={`${id}-to`} label={channel === 'email' ? 'E-mail address' : 'Mobile number'} error={fieldError}>
          <input
            id={`${id}-to`}
            type={channel === 'email' ? 'email' : 'tel'}
            autoComplete={channel === 'email' ? 'email' : 'tel'}
            value={recipient}
            onChange={(event) => setTo(event.target.value)}
            {...errorAttributes(`${id}-to`, fieldError)}
            className={controlClass}
          />
        </FormField>
        <Button type="submit" variant="secondary" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send test'}
        </Button>
      </div>
      <div aria-live="polite">
        {send.isSuccess ? (
          <Alert tone="success">
            Test {send.data.channel === 'email' ? 'e-mail' : 'text'} sent to {send.data.sentTo}.
          </Alert>
        ) : null}
      </div>
      <div aria-live="assertive">{send.isError && !fieldErrorOf(send.error, 'to') ? <Alert>Could not send the test: {messageOf(send.error)}</Alert> : null}</div>
    </form>
  );
}
