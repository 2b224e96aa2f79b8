import { paymentMethodLabels } from '#shared/invoice.ts';
import { formatCents } from '#shared/money.ts';
import type { TechInvoice, TechVisit } from '#shared/tech.ts';
import type { QueuedAction, QueuedPayment, QueuedPhoto } from './db.ts';

/** What the device shows on a visit: its server copy with the queued actions applied in order (optimistic). */
export function applyAction(visit: TechVisit, queued: QueuedAction['action']): TechVisit {
  switch (queued.kind) {
    case 'en-route':
      return { ...visit, enRouteAt: queued.takenAt };
    case 'on-site':
      return { ...visit, status: 'in-progress', onSiteAt: queued.takenAt };
    case 'task':
      return { ...visit, tasks: visit.tasks.map((task) => (task.id === queued.taskId ? { ...task, status: queued.status } : task)) };
    case 'inspection':
      return {
        ...visit,
        inspectionReport: {
          id: `local-${queued.idempotencyKey}`,
          workOrderId: visit.id,
          mca: queued.report.mca ?? null,
          mocp: queued.report.mocp ?? null,
          tempSplit: queued.report.tempSplit ?? null,
          staticPressure: queued.report.staticPressure ?? null,
          inspectionItems: queued.report.inspectionItems ?? [],
          createdAt: queued.takenAt,
        },
      };
    case 'note':
      return {
        ...visit,
        notes: [...visit.notes, { id: `local-${queued.idempotencyKey}`, text: queued.text.trim(), authorName: 'You', createdAt: queued.takenAt }],
      };
    case 'complete': {
      const onSite = visit.onSiteAt ? Date.parse(visit.onSiteAt) : Number.NaN;
      const minutes = Number.isNaN(onSite) ? null : Math.max(0, Math.round((Date.parse(queued.takenAt) - onSite) / 60_000));
      return {
        ...visit,
        status: 'completed',
        completedAt: queued.takenAt,
        completion: {
          summary: queued.summary.trim(),
          materials: queued.materials ?? [],
          signerName: queued.signerName ?? null,
          signatureUrl: queued.signature ?? null,
          timeOnSiteMinutes: minutes,
          followUpNote: queued.followUp?.note ?? null,
          completedByName: 'You',
          completedAt: queued.takenAt,
        },
      };
    }
    case 'payment':
      // The invoice's figures stay the office's until it is recorded: a waiting payment is shown apart (pendingPayments).
      return visit;
  }
}

/** The visit's issued invoices (a copy the phone kept from before payments on site has none). */
export function visitInvoices(visit: TechVisit): TechInvoice[] {
  return (visit.invoices as TechInvoice[] | undefined) ?? [];
}

/** The payments taken on this visit that wait to be sent (refused ones are in the sync issues). */
export function pendingPayments(queue: QueuedAction[], visitId: string): (QueuedPayment & { seq: number })[] {
  return queue.flatMap((item) => (item.visitId === visitId && item.state === 'pending' && item.action.kind === 'payment' ? [{ ...item.action, seq: item.seq! }] : []));
}

/** "Cash payment of $120.00 on INV-000004", "Check #1043 payment of ...". */
export function describePayment(payment: Pick<QueuedPayment, 'method' | 'amountCents' | 'reference' | 'invoiceId'>, visit?: TechVisit): string {
  const number = (visit ? visitInvoices(visit) : []).find((invoice) => invoice.id === payment.invoiceId)?.invoiceNumber;
  const method = payment.method === 'check' && payment.reference ? `Check #${payment.reference}` : paymentMethodLabels[payment.method];
  return `${method} payment of ${formatCents(payment.amountCents)}${number ? ` on ${number}` : ''}`;
}

/** The visit as the technician sees it: the server's copy, then every queued action not refused. */
export function localVisit(server: TechVisit, queue: QueuedAction[]): TechVisit {
  return queue.filter((item) => item.visitId === server.id && item.state !== 'failed').reduce((visit, item) => applyAction(visit, item.action), server);
}

/** A queued photo shown from its bytes until it is uploaded. */
export function queuedPhotoUrl(photo: QueuedPhoto): string {
  return URL.createObjectURL(new Blob([photo.data], { type: photo.type }));
}

/** "Task 'Replace filter' marked completed": what a queued action did, in words (the conflict screen, the failed list). */
export function describeAction(queued: QueuedAction['action'], visit?: TechVisit): string {
  switch (queued.kind) {
    case 'en-route':
      return 'Marked en route';
    case 'on-site':
      return 'Marked on site';
    case 'task': {
      const name = visit?.tasks.find((task) => task.id === queued.taskId)?.taskName ?? 'a task';
      return `Task “${name}” marked ${queued.status === 'completed' ? 'done' : 'not done'}`;
    }
    case 'inspection':
      return 'Recorded the inspection report';
    case 'note':
      return `Added a note: “${queued.text}”`;
    case 'complete':
      return `Completed the work: “${queued.summary}”`;
    case 'payment':
      return describePayment(queued, visit);
  }
}
