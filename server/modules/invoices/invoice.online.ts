import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { todayIn } from '#shared/dates.ts';
import type { InvoiceStatus } from '#shared/enums.ts';
import { billingDocumentFromDetail } from '#shared/invoice.ts';
import { invoiceLinkMessages, type InvoiceCheckoutResponse, type PublicInvoiceResponse } from '#shared/invoice-link.ts';
import { customerDocumentPath } from '#shared/billing-document.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { invoices, paymentCheckouts, paymentEvents, payments } from '#server/db/schema/index.ts';
import { AppError } from '#server/errors.ts';
import {
  interpretStripeEvent,
  PaymentGatewayError,
  stripeMaximumAmountCents,
  stripeMinimumAmountCents,
  type PaymentGateway,
  type StripePaymentFact,
} from '#server/adapters/payments/index.ts';
import { recordAudit, systemActors } from '#server/modules/audit/index.ts';
import type { DocumentLinkService } from '#server/modules/document-links/index.ts';
import { createInvoiceRepository, type InvoiceRow } from './invoice.repository.ts';
import type { InvoiceService } from './invoice.service.ts';
import { isUuid } from '#server/lib/uuid.ts';

const openStatuses: readonly InvoiceStatus[] = ['sent', 'partially_paid'];

type Log = {
  warn: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
};

/** A webhook event the route must answer 503 for (kept nowhere; Stripe delivers it again later). */
export class RetryLaterError extends Error {}

export type WebhookOutcome = {
  eventId: string;
  outcome: string;
  repeated: boolean;
};

/** "How to pay" without online payment (decision 024-e), from the company profile; the billing footer follows it on the document. */
export function howToPayText(company: CompanyProfile, invoiceNumber: string): string {
  const address = [company.address.street, `${company.address.city}, ${company.address.state} ${company.address.zip}`.trim()].filter((part) => part.trim() !== '').join(', ');
  const parts = [
    company.phone ? `Call us at ${company.phone} to pay by card` : undefined,
    `mail a check payable to ${company.name}${address ? ` to ${address}` : ''} (write invoice ${invoiceNumber} on it)`,
    'or pay your technician on your next visit',
  ].filter(Boolean);
  const text = parts.join(', ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.${company.email ? ` Questions? ${company.email}.` : ''}`;
}

/**
 * The customer's invoice link and online card payment (issue 20, decisions 024-e and 024-h): what a
 * link shows, the Checkout Session it starts, and the Stripe webhook that records the money. The
 * payment rule is the invoices service's: paid = payments - refunds, status by shared statusForPaid,
 * in the payment's transaction with the invoice row locked, audited (here as the system).
 */
export function createOnlineInvoices(options: {
  db: Database;
  invoices: InvoiceService;
  documentLinks: DocumentLinkService;
  gateway: PaymentGateway | null;
  company: CompanyProfile;
  timeZone: string;
  log: Log;
  /**
   * Stripe facts about money that is not an invoice's, asked first in the webhook's transaction: an
   * outcome when the fact is theirs, else null. A maintenance plan sign-up's payment (decision 027-c).
   */
  otherPayments?: ((tx: DbExecutor, fact: StripePaymentFact) => Promise<string | null>) | undefined;
  now?: () => Date;
}) {
  const { db, gateway, company, timeZone, log, now = () => new Date() } = options;

  /** The invoice a token opens (issued invoices only; a draft or a credit note has no link). 404 otherwise, always the same. */
  async function openLink(token: string): Promise<InvoiceRow> {
    const opened = await options.documentLinks.open(token, 'invoice', async (documentId) => {
      const [row] = await db
        .select({
          linkVersion: invoices.linkVersion,
          kind: invoices.kind,
          status: invoices.status,
        })
        .from(invoices)
        .where(eq(invoices.id, documentId));
      return row && row.kind === 'invoice' && row.status !== 'draft' ? row.linkVersion : undefined;
    });
    const row = await createInvoiceRepository(db).find(opened.documentId);
    // The link's check just read it; a row gone since answers the same refusal.
    if (!row) throw new AppError('NOT_FOUND', 'This link is not valid or has expired. Please contact us for a new one.');
    return row;
  }

  const balanceOf = (row: InvoiceRow) => row.totalCents - row.paidCents;

  function canPayOnline(row: InvoiceRow): boolean {
    const balance = balanceOf(row);
    return gateway !== null && openStatuses.includes(row.status as InvoiceStatus) && balance >= stripeMinimumAmountCents && balance <= stripeMaximumAmountCents;
  }

  async function documentOf(row: InvoiceRow) {
    const detail = await options.invoices.detail(row.id);
    return billingDocumentFromDetail(detail);
  }

  /** Money received online, by the payment rule: one payment per provider payment (payment intent). */
  async function recordOnlinePayment(tx: DbExecutor, invoiceId: string, providerPaymentId: string, amountCents: number): Promise<'recorded' | 'already_recorded'> {
    const repo = createInvoiceRepository(tx);
    const invoice = await repo.lock(invoiceId);
    if (!invoice) throw new Error(`invoice ${invoiceId} vanished`);
    const [existing] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.kind, 'payment'), eq(payments.providerPaymentId, providerPaymentId)));
    if (existing) return 'already_recorded';
    const actor = systemActors.system;
    await repo.insertPayment({
      invoiceId: invoice.id,
      kind: 'payment',
      method: 'online_card',
      amountCents,
      receivedOn: todayIn(timeZone, now()),
      reference: providerPaymentId.slice(0, 100),
      note: 'Paid online by card',
      providerPaymentId,
      recordedById: null,
      recordedByName: actor.name,
    });
    const updated = await createInvoiceRepository(tx).movePaid(invoice, amountCents, now());
    await recordAudit(tx, {
      actor,
      entityType: 'invoice',
      entityId: invoice.id,
      entityLabel: invoice.invoiceNumber ?? invoice.billingName,
      action: 'payment_recorded',
      changes: {
        method: [null, 'online_card'],
        amountCents: [null, amountCents],
        paidCents: [invoice.paidCents, updated.paidCents],
        status: [invoice.status, updated.status],
      },
    });
    return 'recorded';
  }

  /** The charge's cumulative refunded total: only its increase over what is recorded becomes a refund row. */
  async function recordOnlineRefund(tx: DbExecutor, invoiceId: string, paymentIntentId: string, chargeId: string, refundedTotalCents: number): Promise<string> {
    const repo = createInvoiceRepository(tx);
    const invoice = await repo.lock(invoiceId);
    if (!invoice) throw new Error(`invoice ${invoiceId} vanished`);
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.kind, 'payment'), eq(payments.providerPaymentId, paymentIntentId)))
      .for('update');
    if (!payment) return 'ignored: no payment for the refunded charge';
    const [sum] = await tx
      .select({
        total: sql<number>`coalesce(sum(${payments.amountCents}), 0)`.mapWith(Number),
      })
      .from(payments)
      .where(and(eq(payments.refundOfPaymentId, payment.id), eq(payments.kind, 'refund'), isNotNull(payments.providerPaymentId)));
    const recorded = sum?.total ?? 0;
    const increase = Math.min(refundedTotalCents, payment.amountCents) - recorded;
    if (increase <= 0) return 'already_recorded';
    const actor = systemActors.system;
    await repo.insertPayment({
      invoiceId: invoice.id,
      kind: 'refund',
      method: 'online_card',
      amountCents: increase,
      receivedOn: todayIn(timeZone, now()),
      reference: payment.reference,
      note: 'Refunded by card through Stripe',
      refundOfPaymentId: payment.id,
      providerPaymentId: `${chargeId}:${refundedTotalCents}`,
      recordedById: null,
      recordedByName: actor.name,
    });
    const updated = await createInvoiceRepository(tx).movePaid(invoice, -increase, now());
    await recordAudit(tx, {
      actor,
      entityType: 'invoice',
      entityId: invoice.id,
      entityLabel: invoice.invoiceNumber ?? invoice.billingName,
      action: 'refund_recorded',
      changes: {
        amountCents: [null, increase],
        paidCents: [invoice.paidCents, updated.paidCents],
        status: [invoice.status, updated.status],
      },
    });
    return 'refund_recorded';
  }

  /** Our invoice for a fact: the checkout session we made (payment_checkouts), else the invoice id Stripe carries in metadata. */
  async function invoiceFor(tx: DbExecutor, fact: { invoiceId: string | null; sessionId?: string | null }): Promise<string | 'unknown_session' | 'unknown_invoice'> {
    if (fact.sessionId) {
      const [checkout] = await tx.select({ invoiceId: paymentCheckouts.invoiceId }).from(paymentCheckouts).where(eq(paymentCheckouts.sessionId, fact.sessionId));
      if (!checkout) return 'unknown_session';
      return checkout.invoiceId;
    }
    if (!fact.invoiceId || !isUuid(fact.invoiceId)) return 'unknown_invoice';
    const [row] = await tx.select({ id: invoices.id, kind: invoices.kind }).from(invoices).where(eq(invoices.id, fact.invoiceId.toLowerCase()));
    return row && row.kind === 'invoice' ? row.id : 'unknown_invoice';
  }

  async function handleFact(tx: DbExecutor, fact: StripePaymentFact): Promise<string> {
    const otherOutcome = options.otherPayments ? await options.otherPayments(tx, fact) : null;
    if (otherOutcome !== null) return otherOutcome;
    switch (fact.kind) {
      case 'payment_succeeded': {
        if (fact.currency.toLowerCase() !== 'usd') return `ignored: currency ${fact.currency}`;
        const invoiceId = await invoiceFor(tx, fact);
        if (invoiceId === 'unknown_session') return 'ignored: unknown session';
        if (invoiceId === 'unknown_invoice') return 'ignored: unknown invoice';
        const outcome = await recordOnlinePayment(tx, invoiceId, fact.paymentIntentId, fact.amountCents);
        if (fact.sessionId) {
          await tx
            .update(paymentCheckouts)
            .set({
              status: 'complete',
              completedAt: sql`coalesce(${paymentCheckouts.completedAt}, now())`,
            })
            .where(eq(paymentCheckouts.sessionId, fact.sessionId));
        }
        return outcome;
      }
      case 'refund_updated': {
        if (fact.currency.toLowerCase() !== 'usd') return `ignored: currency ${fact.currency}`;
        if (!fact.paymentIntentId) return 'ignored: refund without a payment intent';
        const [known] = await tx
          .select({ invoiceId: payments.invoiceId })
          .from(payments)
          .where(and(eq(payments.kind, 'payment'), eq(payments.providerPaymentId, fact.paymentIntentId)));
        let invoiceId = known?.invoiceId;
        if (!invoiceId) {
          // A refund before its payment: record the payment first from the charge (decision 024-e, step 4).
          if (!fact.invoiceId) throw new RetryLaterError('a refund of a payment not recorded yet, without an invoice id');
          const found = await invoiceFor(tx, { invoiceId: fact.invoiceId });
          if (found === 'unknown_invoice' || found === 'unknown_session') return 'ignored: unknown invoice';
          invoiceId = found;
          await recordOnlinePayment(tx, invoiceId, fact.paymentIntentId, fact.chargeAmountCents);
        }
        return recordOnlineRefund(tx, invoiceId, fact.paymentIntentId, fact.chargeId, fact.refundedTotalCents);
      }
      case 'checkout_expired':
        await tx
          .update(paymentCheckouts)
          .set({ status: 'expired' })
          .where(and(eq(paymentCheckouts.sessionId, fact.sessionId), eq(paymentCheckouts.status, 'open')));
        return 'checkout_expired';
      case 'payment_pending':
        return 'pending';
      case 'payment_failed':
        return 'payment_failed';
      case 'ignored':
        return 'ignored';
    }
  }

  return {
    isConfigured: gateway !== null,

    /**
     * Money already received online for another purpose, recorded on an invoice in the caller's
     * transaction by the same rule as a webhook's (one payment per payment intent): a plan sign-up
     * paid before its invoice existed (decision 027-c).
     */
    recordPaymentIn: (tx: DbExecutor, invoiceId: string, providerPaymentId: string, amountCents: number) => recordOnlinePayment(tx, invoiceId, providerPaymentId, amountCents),

    /**
     * A voided invoice's open Checkout Sessions are expired at Stripe, so the customer cannot pay
     * it from a page left open (decision 024-e). Best effort: a failure is logged; money that still
     * arrives is recorded on the void invoice for the office to refund.
     */
    async expireOpenCheckouts(invoiceId: string): Promise<void> {
      if (!gateway) return;
      const open = await db
        .select()
        .from(paymentCheckouts)
        .where(and(eq(paymentCheckouts.invoiceId, invoiceId), eq(paymentCheckouts.status, 'open')));
      for (const checkout of open) {
        try {
          const current = await gateway.retrieveCheckout(checkout.sessionId);
          const session = current.status === 'open' ? await gateway.expireCheckout(checkout.sessionId) : current;
          await db
            .update(paymentCheckouts)
            .set({ status: session.status === 'complete' ? 'complete' : 'expired' })
            .where(eq(paymentCheckouts.sessionId, checkout.sessionId));
        } catch (error) {
          log.warn({ invoiceId, sessionId: checkout.sessionId, reason: error instanceof Error ? error.message : String(error) }, 'stripe: the checkout of a voided invoice could not be expired');
        }
      }
    },

    /** What the customer's page shows for a link (`checkoutSessionId`: back from Stripe's success URL). */
    async view(token: string, checkoutSessionId?: string): Promise<PublicInvoiceResponse> {
      const row = await openLink(token);
      const document = await documentOf(row);
      let checkout: PublicInvoiceResponse['checkout'] = null;
      if (checkoutSessionId) {
        const [session] = await db
          .select({ status: paymentCheckouts.status })
          .from(paymentCheckouts)
          .where(and(eq(paymentCheckouts.sessionId, checkoutSessionId), eq(paymentCheckouts.invoiceId, row.id)));
        if (session) checkout = session.status === 'complete' ? 'recorded' : 'confirming';
      }
      return {
        document,
        status: row.status as InvoiceStatus,
        balanceCents: balanceOf(row),
        payOnline: canPayOnline(row) ? { amountCents: balanceOf(row) } : null,
        howToPay: howToPayText(company, row.invoiceNumber ?? ''),
        checkout,
      };
    },

    /** The same document as a PDF, with its file name. */
    async pdfDocument(token: string) {
      const row = await openLink(token);
      return {
        document: await documentOf(row),
        fileName: `${row.invoiceNumber ?? 'invoice'}.pdf`,
      };
    },

    /**
     * A Checkout Session for the current balance (decision 024-e): an open one of the same amount
     * is reused; otherwise a new one, with an Idempotency-Key per invoice, balance, link version
     * and session count (a double click gets the same session).
     */
    async checkout(token: string): Promise<InvoiceCheckoutResponse> {
      const row = await openLink(token);
      if (!gateway) throw new AppError('CONFLICT', invoiceLinkMessages.onlineUnavailable);
      if (!canPayOnline(row)) throw new AppError('CONFLICT', invoiceLinkMessages.nothingToPay);
      const balance = balanceOf(row);
      const existing = await db.select().from(paymentCheckouts).where(eq(paymentCheckouts.invoiceId, row.id)).orderBy(paymentCheckouts.createdAt);
      try {
        for (const previous of existing.filter((checkout) => checkout.status === 'open')) {
          const session = await gateway.retrieveCheckout(previous.sessionId);
          if (session.status === 'open' && session.url && previous.amountCents === balance && session.amountTotalCents === balance) return { url: session.url };
          if (session.status === 'open') await gateway.expireCheckout(previous.sessionId);
          await db
            .update(paymentCheckouts)
            .set({
              status: session.status === 'complete' ? 'complete' : 'expired',
            })
            .where(eq(paymentCheckouts.sessionId, previous.sessionId));
        }
        const page = `${company.siteUrl.replace(/\/+$/, '')}${customerDocumentPath('invoice', token)}`;
        const session = await gateway.createCheckout({
          invoiceId: row.id,
          invoiceNumber: row.invoiceNumber ?? '',
          amountCents: balance,
          currency: 'usd',
          customerEmail: row.billingEmail ?? undefined,
          successUrl: `${page}?checkout={CHECKOUT_SESSION_ID}`,
          cancelUrl: page,
          idempotencyKey: `checkout:${row.id}:${balance}:v${row.linkVersion}:${existing.length}`,
        });
        await db
          .insert(paymentCheckouts)
          .values({
            sessionId: session.sessionId,
            invoiceId: row.id,
            amountCents: balance,
          })
          .onConflictDoNothing();
        if (!session.url)
          throw new PaymentGatewayError('the new session has no url', {
            kind: 'bad_response',
            retryable: false,
          });
        return { url: session.url };
      } catch (error) {
        if (!(error instanceof PaymentGatewayError)) throw error;
        log.error({ err: error, invoiceId: row.id, kind: error.details.kind }, 'online payment: checkout failed');
        throw new AppError('UPSTREAM_FAILED', invoiceLinkMessages.onlineUnavailable);
      }
    },

    /**
     * One webhook delivery (decision 024-e): signature checked (WebhookSignatureError: the route's
     * 400), then in one transaction the event id kept once and its payment or refund recorded.
     */
    async handleWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<WebhookOutcome> {
      if (!gateway) throw new AppError('NOT_FOUND', 'No route for POST /api/public/payments/stripe/webhook');
      const event = gateway.verifyWebhook(rawBody, signatureHeader, now());
      const fact = interpretStripeEvent(event);
      return withTransaction(db, async (tx) => {
        const inserted = await tx
          .insert(paymentEvents)
          .values({
            eventId: event.id,
            type: event.type,
            outcome: 'processing',
          })
          .onConflictDoNothing()
          .returning({ eventId: paymentEvents.eventId });
        if (inserted.length === 0) return { eventId: event.id, outcome: 'repeated', repeated: true };
        const outcome = await handleFact(tx, fact);
        await tx.update(paymentEvents).set({ outcome }).where(eq(paymentEvents.eventId, event.id));
        if (outcome.startsWith('ignored: unknown')) log.warn({ eventId: event.id, type: event.type, outcome }, 'stripe webhook: nothing of ours');
        return { eventId: event.id, outcome, repeated: false };
      });
    },
  };
}

export type OnlineInvoices = ReturnType<typeof createOnlineInvoices>;
