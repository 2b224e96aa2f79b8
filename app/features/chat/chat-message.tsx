import { Fragment, type ReactNode } from 'react';
import { telHref } from '#shared/company-profile.ts';
import { company } from '#client/lib/company.ts';
import type { ChatMessage } from './chat-store.ts';

// One message of the 'HVAC Assistant' conversation: the assistant's avatar, its words with
// tap-to-call phone numbers and highlighted work order numbers, and the urgent-reply styling.

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const phonePattern = /(\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b)/;
const workOrderPattern = /(\bWO-[\w-]+\b)/;

/** Phone numbers in the assistant's words become tap-to-call links; work order numbers stand out. */
function withPhoneLinks(text: string, linkClass: string): ReactNode {
  return text.split(phonePattern).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={telHref(part)} className={`whitespace-nowrap ${linkClass}`}>
        {part}
      </a>
    ) : (
      <Fragment key={index}>
        {part.split(workOrderPattern).map((piece, pieceIndex) =>
          pieceIndex % 2 === 1 ? (
            <strong key={pieceIndex} className="whitespace-nowrap font-semibold">
              {piece}
            </strong>
          ) : (
            piece
          ),
        )}
      </Fragment>
    ),
  );
}

function isUrgentReply(message: Pick<ChatMessage, 'urgency' | 'category' | 'action'>): boolean {
  return message.urgency === 'emergency' || message.category === 'safety' || message.category === 'emergency' || message.action === 'call_now';
}

export function AssistantAvatar({ className = 'size-8' }: { className?: string }) {
  return (
    <span aria-hidden="true" className={`grid shrink-0 place-items-center rounded-full bg-brand-800 text-white ${className}`}>
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" className="size-[55%]">
        <path d="M12 2v20M4.93 4.93l14.14 14.14M2 12h20M4.93 19.07L19.07 4.93" />
        <path d="M9 4l3 2 3-2M9 20l3-2 3 2M4 9l2 3-2 3M20 9l-2 3 2 3" />
      </svg>
    </span>
  );
}

export function MessageItem({ message }: { message: Pick<ChatMessage, 'sender' | 'text' | 'urgency' | 'category' | 'action'> & { at?: string } }) {
  const time = message.at ? new Date(message.at) : undefined;
  const timeLabel = time && !Number.isNaN(time.getTime()) ? timeFormat.format(time) : undefined;
  if (message.sender === 'user') {
    return (
      <div className="flex flex-col items-end" data-sender="user">
        <p className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-brand-700 px-3.5 py-2 text-[15px] leading-snug text-white shadow-sm">
          <span className="sr-only">You said: </span>
          {message.text}
        </p>
        {timeLabel ? (
          <time dateTime={message.at} className="mt-1 px-1 text-xs text-slate-600">
            {timeLabel}
          </time>
        ) : null}
      </div>
    );
  }
  const isUrgent = isUrgentReply(message);
  return (
    <div className="flex items-end gap-2" data-sender="ai">
      <AssistantAvatar className="mb-5 size-7" />
      <div className="flex min-w-0 max-w-[85%] flex-col items-start">
        <div
          className={`whitespace-pre-wrap break-words rounded-2xl rounded-bl-md border px-3.5 py-2 text-[15px] leading-snug shadow-sm ${
            isUrgent ? 'border-red-200 bg-red-50 text-red-950' : 'border-slate-200 bg-white text-slate-900'
          }`}
        >
          <span className="sr-only">Assistant said: </span>
          {isUrgent ? (
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="mb-1 size-5 text-red-700">
              <path fillRule="evenodd" d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495zM10 6a.75.75 0 01.75.75v3.5a.75.75 0 01-1.5 0v-3.5A.75.75 0 0110 6zm0 9a1 1 0 100-2 1 1 0 000 2z" clipRule="evenodd" />
            </svg>
          ) : null}
          {withPhoneLinks(message.text, `font-semibold underline underline-offset-2 ${isUrgent ? 'text-red-800' : 'text-brand-700'}`)}
        </div>
        {isUrgent ? (
          <a
            href={telHref(company.emergencyPhone)}
            className="mt-2 inline-flex items-center gap-2 rounded-full bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800"
          >
            <PhoneIcon className="size-4" />
            Call {company.emergencyPhone}
          </a>
        ) : null}
        {timeLabel ? (
          <time dateTime={message.at} className="mt-1 px-1 text-xs text-slate-600">
            {timeLabel}
          </time>
        ) : (
          <span className="h-5" aria-hidden="true" />
        )}
      </div>
    </div>
  );
}

export function PhoneIcon({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className={className}>
      <path d="M22 16.92v3a2 2 0 01-2.18 2 19.79 19.79 0 01-8.63-3.07 19.5 19.5 0 01-6-6A19.79 19.79 0 012.11 4.18 2 2 0 014.09 2h3a2 2 0 012 1.72c.13.96.36 1.9.7 2.81a2 2 0 01-.45 2.11L8.09 9.91a16 16 0 006 6l1.27-1.27a2 2 0 012.11-.45c.91.34 1.85.57 2.81.7A2 2 0 0122 16.92z" />
    </svg>
  );
}
