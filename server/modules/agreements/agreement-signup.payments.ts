import type { FastifyBaseLogger } from 'fastify';
import { agreementSignupMessages, agreementSignupReference, type AgreementSignupCheckoutStatus, type AgreementSignupReceived } from '#shared/agreement-signup.ts';
import type { AgreementBilling } from '#shared/agreement.ts';
import { maintenancePlanById, planMonthlyCents, planPriceCents, type MaintenancePlanId } from '#shared/maintenance-plans.ts';
import { withTransaction, type Database, type DbExecutor } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { isUuid } from '#server/lib/uuid.ts';
import { PaymentGatewayError, type CheckoutSession, type PaymentGateway, type StripePaymentFact } from '#server/adapters/payments/index.ts';
import { recordAudit, systemActors } from '#server/modules/audit/index.ts';
import { createAgreementSignupRepository, type AgreementSignupRow } from './agreement-signup.repository.ts';

type Options = {
  db: Database;
  /** Stripe, or null: no online payment (the sign-up is paid when the office confirms, as before). */
  gateway: PaymentGateway | null;
  /** The public site's address, for Stripe's return links. */
  siteUrl: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  now?: () => Date;
};

export type SignupPaymentAnswer = AgreementSignupReceived['payment'];

/** What paying now costs: the first year, or the first month of monthly billing (the term invoice's own amount). */
export function signupFirstPaymentCents(planId: MaintenancePlanId, billing: AgreementBilling): number {
  return billing === 'monthly' ? planMonthlyCents(planId) : planPriceCents(planId);
}

/**
 * A plan sign-up's online payment (issue 22, decision 027-c). The sign-up is stored first, so a
 * failing Stripe never loses it; then a Checkout Session for the first year or month (one per
 * sign-up: its Idempotency-Key is the sign-up's id, so a repeat gets the same page). Stripe's webhook
 * (the invoices module's route, which hands these facts here first) records the money on the
 * sign-up; the office's confirmation moves it onto the first term's invoice, and a decline refunds it.
 */
export function createAgreementSignupPayments({ db, gateway, siteUrl, log, now = () => new Date() }: Options) {
  const repository = createAgreementSignupRepository;
  const page = `${siteUrl.replace(/\/+$/, '')}/MaintenancePlan`;

  async function audit(tx: DbExecutor, row: AgreementSignupRow, action: string, changes: Record<string, [unknown, unknown]>) {
    await recordAudit(tx, { actor: systemActors.system, entityType: 'agreement_signup', entityId: row.id, entityLabel: `${agreementSignupReference(row.id)} ${row.name}`, action, changes });
  }

  /** The money Stripe confirmed, kept on the sign-up once per payment intent. */
  async function markPaid(tx: DbExecutor, row: AgreementSignupRow, paymentIntentId: string, amountCents: number): Promise<string> {
    if (row.paymentIntentId === paymentIntentId) return 'already_recorded';
    if (row.paymentIntentId) {
      log.error({ signupId: row.id, paymentIntentId }, 'plan sign-up: a second payment for one sign-up; refund it from Stripe');
      return 'ignored: a second payment for the sign-up';
    }
    const after = await repository(tx).setPayment(row.id, { paymentStatus: 'paid', paymentIntentId, paidCents: amountCents, paidAt: now() });
    await audit(tx, after, 'paid_online', { paymentStatus: [row.paymentStatus, 'paid'], paidCents: [null, amountCents] });
    if (row.status === 'declined') log.error({ signupId: row.id, paymentIntentId }, 'plan sign-up: paid after it was declined; refund it from Stripe');
    return 'signup_paid';
  }

  /** The sign-up a fact is about, locked: by session, else payment intent, else the id Stripe's metadata carries. */
  async function signupFor(tx: DbExecutor, fact: StripePaymentFact): Promise<AgreementSignupRow | undefined> {
    if (fact.kind === 'ignored') return undefined;
    const signups = repository(tx);
    if ('sessionId' in fact && fact.sessionId) {
      const bySession = await signups.lockBy('checkoutSessionId', fact.sessionId);
      if (bySession) return bySession;
    }
    if ('paymentIntentId' in fact && fact.paymentIntentId) {
      const byIntent = await signups.lockBy('paymentIntentId', fact.paymentIntentId);
      if (byIntent) return byIntent;
    }
    return fact.signupId && isUuid(fact.signupId) ? signups.lockBy('id', fact.signupId.toLowerCase()) : undefined;
  }

  /** A session as Stripe tells it now, applied to the sign-up (paid, or closed unpaid). */
  async function applySession(row: AgreementSignupRow, session: CheckoutSession): Promise<void> {
    await withTransaction(db, async (tx) => {
      const locked = (await repository(tx).lockBy('id', row.id))!;
      if (session.status === 'complete' && session.paymentStatus === 'paid' && session.paymentIntentId && session.amountTotalCents !== null) {
        await markPaid(tx, locked, session.paymentIntentId, session.amountTotalCents);
      } else if (session.status === 'expired' && locked.paymentStatus === 'awaiting') {
        await repository(tx).setPayment(row.id, { paymentStatus: 'expired' });
      }
    });
  }

  return {
    isConfigured: gateway !== null,

    /**
     * After the sign-up is stored: Stripe's page for its first payment. A failing Stripe is logged
     * and answered `unavailable`; the sign-up stands and the office collects the payment.
     */
    async startCheckout(row: AgreementSignupRow): Promise<SignupPaymentAnswer> {
      if (!gateway) return { status: 'not_offered' };
      if (row.paymentStatus === 'paid') return { status: 'paid' };
      if (row.status !== 'pending') return { status: 'unavailable' };
      const planId = row.planId as MaintenancePlanId;
      const billing = row.billing as AgreementBilling;
      const amountCents = signupFirstPaymentCents(planId, billing);
      const plan = maintenancePlanById(planId)!;
      try {
        const session = await gateway.createCheckout({
          signupId: row.id,
          signupReference: agreementSignupReference(row.id),
          productName: `${plan.name} maintenance plan, first ${billing === 'monthly' ? 'month' : 'year'}`,
          amountCents,
          currency: 'usd',
          customerEmail: row.email,
          successUrl: `${page}?checkout={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${page}?checkout=cancelled`,
          idempotencyKey: `signup-checkout:${row.id}`,
        });
        if (row.checkoutSessionId !== session.sessionId) {
          await repository(db).setPayment(row.id, { paymentStatus: 'awaiting', checkoutSessionId: session.sessionId, checkoutAmountCents: amountCents });
        }
        if (session.status !== 'open' || !session.url) return { status: 'unavailable' };
        return { status: 'checkout', url: session.url, amountCents };
      } catch (error) {
        if (!(error instanceof PaymentGatewayError)) throw error;
        log.error({ err: error, signupId: row.id, kind: error.details.kind }, 'plan sign-up: starting the online payment failed; the sign-up is kept');
        return { status: 'unavailable' };
      }
    },

    /** Back from Stripe's page: is the payment recorded yet? Only the session's own state; a 404 for any other id. */
    async checkoutStatus(sessionId: string): Promise<AgreementSignupCheckoutStatus> {
      const row = gateway ? await repository(db).bySession(sessionId) : undefined;
      if (!row) throw new AppError('NOT_FOUND', agreementSignupMessages.checkoutNotFound);
      if (row.paymentStatus === 'paid' || row.paymentStatus === 'refunded') return { status: 'paid' };
      return { status: row.paymentStatus === 'awaiting' ? 'confirming' : 'not_paid' };
    },

    /**
     * A verified webhook fact, in the webhook's transaction: an outcome when it is a sign-up's, else
     * null (the invoices module's). A refund of a confirmed sign-up's payment is the invoice's: its
     * payment is on the first term's invoice.
     */
    async handleFact(tx: DbExecutor, fact: StripePaymentFact): Promise<string | null> {
      const row = await signupFor(tx, fact);
      if (!row) return fact.kind !== 'ignored' && fact.signupId ? 'ignored: unknown sign-up' : null;
      switch (fact.kind) {
        case 'payment_succeeded':
          if (fact.currency.toLowerCase() !== 'usd') return `ignored: currency ${fact.currency}`;
          return markPaid(tx, row, fact.paymentIntentId, fact.amountCents);
        case 'refund_updated': {
          if (row.status === 'confirmed' && row.invoiceId) return null;
          if (row.paymentStatus === 'refunded') return 'already_recorded';
          if (fact.refundedTotalCents < (row.paidCents ?? fact.chargeAmountCents)) {
            log.warn({ signupId: row.id }, 'plan sign-up: a partial refund from Stripe; the office settles the rest');
            return 'signup_partially_refunded';
          }
          const after = await repository(tx).setPayment(row.id, { paymentStatus: 'refunded', refundedAt: now(), ...(row.paymentIntentId ? {} : { paymentIntentId: fact.paymentIntentId, paidCents: fact.chargeAmountCents }) });
          await audit(tx, after, 'refunded_online', { paymentStatus: [row.paymentStatus, 'refunded'] });
          return 'signup_refunded';
        }
        case 'checkout_expired':
          if (row.paymentStatus === 'awaiting') await repository(tx).setPayment(row.id, { paymentStatus: 'expired' });
          return 'signup_checkout_expired';
        case 'payment_pending':
          return 'pending';
        case 'payment_failed':
          return 'payment_failed';
        case 'ignored':
          return null;
      }
    },

    /**
     * Before the office decides: an open checkout is closed at Stripe (or found paid), so no money
     * arrives after the decision. Stripe unreachable: the decision waits (502), nothing changes.
     */
    async settleOpenCheckout(row: AgreementSignupRow): Promise<void> {
      if (!gateway || row.paymentStatus !== 'awaiting' || !row.checkoutSessionId) return;
      try {
        let session = await gateway.retrieveCheckout(row.checkoutSessionId);
        if (session.status === 'open') session = await gateway.expireCheckout(row.checkoutSessionId);
        await applySession(row, session);
      } catch (error) {
        if (!(error instanceof PaymentGatewayError)) throw error;
        log.error({ err: error, signupId: row.id, kind: error.details.kind }, 'plan sign-up: its open checkout could not be settled');
        throw new AppError('UPSTREAM_FAILED', agreementSignupMessages.paymentStillOpen);
      }
    },

    /**
     * A declined sign-up's payment back to the card, before the decline is stored (the same key
     * makes a repeat the same refund). Stripe failing: the decline waits, nothing changes.
     */
    async refund(row: AgreementSignupRow): Promise<{ refundId: string } | null> {
      if (row.paymentStatus !== 'paid' || !row.paymentIntentId) return null;
      if (!gateway) throw new AppError('UPSTREAM_FAILED', agreementSignupMessages.refundFailed);
      try {
        const refund = await gateway.refund({ paymentIntentId: row.paymentIntentId, metadata: { signup_id: row.id }, idempotencyKey: `signup-refund:${row.id}` });
        if (refund.status === 'failed' || refund.status === 'canceled') throw new PaymentGatewayError(`the refund is ${refund.status}`, { kind: 'invalid_request', retryable: false });
        return { refundId: refund.refundId };
      } catch (error) {
        if (!(error instanceof PaymentGatewayError)) throw error;
        log.error({ err: error, signupId: row.id, kind: error.details.kind }, 'plan sign-up: the refund failed; the sign-up stays waiting');
        throw new AppError('UPSTREAM_FAILED', agreementSignupMessages.refundFailed);
      }
    },
  };
}

export type AgreementSignupPayments = ReturnType<typeof createAgreementSignupPayments>;
