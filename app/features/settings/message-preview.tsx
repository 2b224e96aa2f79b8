import { useId } from 'react';
import { renderMessage, sampleMessageVariables, type MessageTemplate } from '#shared/messaging.ts';
import { smsLength, smsLengthLine } from '#client/features/messaging/index.ts';

/**
 * The live preview of a template being edited: rendered by the same `renderMessage` the server
 * sends with, filled with the sample values, as an e-mail card and a text bubble with its length
 * in characters and billed text messages (segments).
 */
export function MessagePreview({ template }: { template: MessageTemplate }) {
  const emailTitleId = useId();
  const textTitleId = useId();
  const rendered = renderMessage(template, sampleMessageVariables);
  const length = smsLength(rendered.smsBody);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <section aria-labelledby={emailTitleId} className="min-w-0">
        <h4 id={emailTitleId} className="text-sm font-semibold text-slate-800">
          E-mail preview
        </h4>
        <div className="mt-2 rounded-lg border border-slate-200 bg-white shadow-sm">
          <p className="border-b border-slate-200 px-4 py-2 text-sm">
            <span className="text-slate-600">Subject: </span>
            <span className="font-semibold break-words text-slate-900">
              {rendered.subject}
            </span>
          </p>
          <p className="px-4 py-3 text-sm break-words whitespace-pre-line text-slate-800">
            {rendered.emailBody}
          </p>
        </div>
      </section>
      <section aria-labelledby={textTitleId} className="min-w-0">
        <h4 id={textTitleId} className="text-sm font-semibold text-slate-800">
          Text message preview
        </h4>
        <div className="mt-2 rounded-lg bg-slate-100 p-3">
          <p className="max-w-xs rounded-2xl rounded-bl-sm bg-white px-3 py-2 text-sm break-words whitespace-pre-line text-slate-900 shadow-sm">
            {rendered.smsBody}
          </p>
        </div>
        <p className={`mt-1 text-sm ${length.segments > 1 ? 'text-amber-900' : 'text-slate-600'}`}>
          {smsLengthLine(length)}
        </p>
      </section>
    </div>
  );
}
