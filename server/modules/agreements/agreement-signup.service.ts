import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { agreementCreateSchema, type AgreementBilling } from '#shared/agreement.ts';
import {
  agreementSignupMessages,
  agreementSignupReference,
  type AgreementSignup,
  type AgreementSignupListResponse,
  type AgreementSignupReceived,
  type AgreementSignupRequest,
  type AgreementSignupPaymentStatus,
  type AgreementSignupStatus,
  type agreementSignupConfirmSchema,
  type agreementSignupListQuerySchema,
} from '#shared/agreement-signup.ts';
import type { CompanyProfile } from '#shared/company-profile.ts';
import { customerInputSchema } from '#shared/customer.ts';
import { todayIn } from '#shared/dates.ts';
import { maintenancePlanById, planMonthlyCents, planPriceCents, type MaintenancePlanId } from '#shared/maintenance-plans.ts';
import { formatCents } from '#shared/money.ts';
import { notificationTypes } from '#shared/notifications.ts';
import { serviceAreas } from '#shared/service-areas.ts';
import type { DocumentLineValues } from '#shared/document-line.ts';
import { withTransaction, type Database, type DbExecutor, type RepositoryFactory } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { isUuid } from '#server/lib/uuid.ts';
import { diffFields, recordAudit, systemActors, type AuditActor } from '#server/modules/audit/index.ts';
import { readBookingSettings } from '#server/modules/availability/index.ts';
import { recordCustomerChange, type CustomerRepository } from '#server/modules/customers/index.ts';
import { claimRecipientSlot, type EmailOutbox } from '#server/modules/email/index.ts';
import type { LeadRepository } from '#server/modules/leads/index.ts';
import type { NotificationRepository } from '#server/modules/notifications/index.ts';
import { createAgreementSignupRepository, type AgreementSignupListRow, type AgreementSignupRow } from './agreement-signup.repository.ts';
import type { AgreementSignupPayments } from './agreement-signup.payments.ts';
import type { AgreementService } from './agreement.service.ts';

/** At most this many sign-up e-mails go to one address in 24 hours; past it the sign-up is stored and the answer is the same. */
export const signupEmailsPerRecipientPerDay = 3;
export const signupReceivedKind = 'agreement_signup_received';
export const signupConfirmedKind = 'agreement_signup_confirmed';
const auditedFields = ['status', 'declineReason', 'agreementId', 'customerId'] as const;

type Options = {
  db: Database;
  agreements: Pick<AgreementService, 'createIn' | 'termInvoiceIn'>;
  /** Online payment of the first year or month (decision 027-c); its gateway may be null. */
  payments: AgreementSignupPayments;
  /** The invoices module's (app.ts passes them): a paid sign-up's first term is invoiced with the payment on it. */
  invoices: {
    createIssuedIn: (tx: DbExecutor, values: { customerId: string; lines: DocumentLineValues[]; notes: string }, actor: AuditActor) => Promise<{ id: string; invoiceNumber: string }>;
    recordPaymentIn: (tx: DbExecutor, invoiceId: string, providerPaymentId: string, amountCents: number) => Promise<unknown>;
  };
  /** The customers module's repository (app.ts passes it; a module never builds another's). */
  customerRepository: RepositoryFactory<CustomerRepository>;
  /** The leads module's repository: a sign-up is a lead on the Leads screen. */
  leadRepository: RepositoryFactory<LeadRepository>;
  notifications: NotificationRepository;
  outbox: Pick<EmailOutbox, 'enqueue' | 'kick'>;
  company: Pick<CompanyProfile, 'name' | 'phone' | 'address'>;
  timeZone: string;
  log: FastifyBaseLogger;
  now?: () => Date;
};

const notFound = () => new AppError('NOT_FOUND', agreementSignupMessages.notFound);
const planName = (planId: string) => maintenancePlanById(planId)?.name ?? planId;

/** What the plan costs as the visitor chose to pay it. */
function priceLine(planId: MaintenancePlanId, billing: AgreementBilling): string {
  return billing === 'monthly' ? `${formatCents(planMonthlyCents(planId))} a month` : `${formatCents(planPriceCents(planId))} a year`;
}

/**
 * The site's plan sign-up (issue 22, decision 027-b): stored without a customer, a lead and a staff
 * notification with it, and the visitor told by e-mail that the office will confirm. The office then
 * confirms it (a new customer made from it, or one chosen; the agreement by the same rule as a sale
 * from the profile) or declines it with a reason.
 */
export function createAgreementSignupService({ db, agreements, payments, invoices, customerRepository, leadRepository, notifications, outbox, company, timeZone, log, now = () => new Date() }: Options) {
  const repository = createAgreementSignupRepository;

  /** The town of a served ZIP code (the first service area listing it), else the company's own. */
  function cityOf(zip: string): string {
    return serviceAreas.find((area) => area.zipCodes.includes(zip))?.name ?? company.address.city;
  }

  function toSignup(row: AgreementSignupListRow, possibleCustomer: { id: string; name: string } | null = null): AgreementSignup {
    return {
      id: row.id,
      reference: agreementSignupReference(row.id),
      planId: row.planId as MaintenancePlanId,
      planName: planName(row.planId),
      billing: row.billing as AgreementBilling,
      name: row.name,
      email: row.email,
      phone: row.phone,
      address: row.address,
      city: row.city,
      zip: row.zip,
      note: row.note,
      status: row.status as AgreementSignupStatus,
      declineReason: row.declineReason,
      possibleCustomer,
      agreementId: row.agreementId,
      agreementNumber: row.agreementNumber,
      customerId: row.customerId,
      customerName: row.customerName,
      leadId: row.leadId,
      payment: {
        status: row.paymentStatus as AgreementSignupPaymentStatus,
        amountCents: row.paidCents ?? row.checkoutAmountCents,
        paidAt: row.paidAt?.toISOString() ?? null,
        refundedAt: row.refundedAt?.toISOString() ?? null,
        invoiceId: row.invoiceId,
        invoiceNumber: row.invoiceNumber,
      },
      createdAt: row.createdAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  async function viewIn(executor: DbExecutor, id: string): Promise<AgreementSignup> {
    const row = await repository(executor).byId(id);
    if (!row) throw notFound();
    return toSignup(row);
  }

  function receivedEmail(row: AgreementSignupRow) {
    const plan = maintenancePlanById(row.planId)!;
    const firstName = row.name.split(/\s+/)[0] ?? row.name;
    return {
      recipients: [row.email],
      subject: `We received your ${plan.name} maintenance plan sign-up`,
      text:
        `Hi ${firstName},\n\nThank you for signing up for our ${plan.name} maintenance plan (${priceLine(plan.id, row.billing as AgreementBilling)}). ` +
        `Your reference is ${agreementSignupReference(row.id)}.\n\n` +
        `Our office will confirm your plan and call you at ${row.phone} to book your first tune-up. ` +
        (payments.isConfigured
          ? `If you chose to pay online, the payment counts toward your plan once it is confirmed, and is refunded in full if we cannot take it on.\n\n`
          : `Nothing is charged before then.\n\n`) +
        `Questions? Call us at ${company.phone}.\n\n${company.name}`,
      relatedType: 'maintenance_agreement_signup',
      relatedId: row.id,
      kind: signupReceivedKind,
    };
  }

  function confirmedEmail(row: AgreementSignupRow, agreement: { agreementNumber: string; startDate: string }, invoice: { invoiceNumber: string } | undefined) {
    const plan = maintenancePlanById(row.planId)!;
    const firstName = row.name.split(/\s+/)[0] ?? row.name;
    return {
      recipients: [row.email],
      subject: `Your ${plan.name} maintenance plan is confirmed`,
      text:
        `Hi ${firstName},\n\nYour ${plan.name} maintenance plan (${agreement.agreementNumber}) is confirmed from ${agreement.startDate}: ` +
        `${plan.visitsPerYear} tune-up visit${plan.visitsPerYear > 1 ? 's' : ''} a year and ${plan.repairDiscountPercent}% off repairs. ` +
        `We will call you to book each visit at a time that suits you.` +
        (invoice && row.paidCents !== null ? ` Your online payment of ${formatCents(row.paidCents)} is recorded on invoice ${invoice.invoiceNumber}.` : '') +
        `\n\nQuestions? Call us at ${company.phone}.\n\n${company.name}`,
      relatedType: 'maintenance_agreement_signup',
      relatedId: row.id,
      kind: signupConfirmedKind,
    };
  }

  async function audit(tx: DbExecutor, actor: AuditActor, before: AgreementSignupRow | undefined, after: AgreementSignupRow, action: string, extra: Record<string, [unknown, unknown]> = {}) {
    const changes = before ? diffFields(before, after, { only: auditedFields }) : diffFields(undefined, after, { only: ['planId', 'billing', 'name', 'email', 'phone', 'address', 'zip', 'status'] });
    await recordAudit(tx, { actor, entityType: 'agreement_signup', entityId: after.id, entityLabel: `${agreementSignupReference(after.id)} ${after.name}`, action, changes: { ...changes, ...extra } });
  }

  /**
   * Before a decision, outside any transaction (Stripe is called): a waiting sign-up's open checkout
   * is closed or found paid. Answers the sign-up as it then stands, while it still waits.
   */
  async function settleBeforeDecision(id: string): Promise<AgreementSignupRow | undefined> {
    const row = await repository(db).byId(id);
    if (!row || row.status !== 'pending') return undefined;
    await payments.settleOpenCheckout(row);
    return row.paymentStatus === 'awaiting' ? await repository(db).byId(id) : row;
  }

  /** Locks a waiting sign-up for a decision: 404 when there is none, 409 once it was decided. */
  async function lockPending(tx: DbExecutor, id: string): Promise<AgreementSignupRow> {
    const row = await repository(tx).lockById(id);
    if (!row) throw notFound();
    if (row.status !== 'pending') throw new AppError('CONFLICT', agreementSignupMessages.alreadyDecided, { status: row.status });
    return row;
  }

  return {
    /**
     * A sign-up from the site. The same idempotency key again answers the first result and changes
     * nothing; a filled honeypot gets the same-looking answer and stores nothing. The answer never
     * depends on stored customers.
     */
    async submit(input: AgreementSignupRequest, context: { idempotencyKey: string | undefined }): Promise<AgreementSignupReceived & { isReplay: boolean }> {
      if (input.website && input.website.trim() !== '') {
        log.info('plan sign-up dropped: honeypot field filled');
        return { status: 'received', reference: agreementSignupReference(randomUUID()), payment: { status: 'not_offered' }, isReplay: false };
      }
      const { serviceAreaZips } = await readBookingSettings(db);
      if (!serviceAreaZips.includes(input.zip)) {
        const message = agreementSignupMessages.outsideArea(company.phone);
        throw new AppError('VALIDATION_FAILED', message, [{ path: 'zip', message }]);
      }
      const stored = await withTransaction(db, async (tx) => {
        const signups = repository(tx);
        const row = await signups.insertOnce({
          planId: input.planId,
          billing: input.billing,
          name: input.name,
          email: input.email,
          phone: input.phone,
          address: input.address,
          city: cityOf(input.zip),
          zip: input.zip,
          note: input.note,
          idempotencyKey: context.idempotencyKey,
        });
        if (!row) return undefined;
        const reference = agreementSignupReference(row.id);
        const plan = planName(row.planId);
        const lead = await leadRepository(tx).insertWebsiteLead({
          name: row.name,
          email: row.email,
          phone: row.phone,
          address: `${row.address}, ${row.city}, ${company.address.state} ${row.zip}`,
          serviceType: 'maintenance',
          priority: 'normal',
          description: `Maintenance plan sign-up ${reference}: ${plan} plan, billed ${row.billing}.${row.note ? ` Note: ${row.note}` : ''}`.slice(0, 2000),
        });
        await signups.setLead(row.id, lead.id);
        await notifications.insert(tx, {
          type: notificationTypes.newPlanSignup,
          title: `New plan sign-up: ${plan}`,
          message: `${row.name} signed up for the ${plan} plan (billed ${row.billing}) at ${row.address}, ${row.city} through the website.`,
          data: { signup_id: row.id, estimate_request_id: lead.id, plan_id: row.planId, link: '/admin/visits-due' },
        });
        await audit(tx, systemActors.websiteVisitor, undefined, row, 'created', { leadId: [null, lead.id] });
        // Past the per-address cap the sign-up is stored and staff told as always; only the e-mail is skipped.
        if (await claimRecipientSlot(tx, signupReceivedKind, row.email, signupEmailsPerRecipientPerDay)) await outbox.enqueue(tx, [receivedEmail(row)]);
        else log.info({ signupId: row.id }, 'plan sign-up e-mail skipped: this address had its daily number');
        return row;
      });
      if (!stored) {
        const first = (await repository(db).byIdempotencyKey(context.idempotencyKey!))!;
        return { status: 'received', reference: agreementSignupReference(first.id), payment: await payments.startCheckout(first), isReplay: true };
      }
      outbox.kick();
      // Stored first: Stripe failing now loses nothing (the answer says online payment is unavailable).
      return { status: 'received', reference: agreementSignupReference(stored.id), payment: await payments.startCheckout(stored), isReplay: false };
    },

    /** The office's list of one status, with a possible stored customer for each waiting one. */
    async list(query: z.output<typeof agreementSignupListQuerySchema>): Promise<AgreementSignupListResponse> {
      const signups = repository(db);
      const rows = await signups.list(query.status, query.pageSize, (query.page - 1) * query.pageSize);
      const { total, pending } = await signups.counts(query.status);
      const customers = customerRepository(db);
      const views: AgreementSignup[] = [];
      for (const row of rows) {
        const match = row.status === 'pending' ? await customers.findByContact({ phone: row.phone, email: row.email }) : undefined;
        views.push(toSignup(row, match ? { id: match.id, name: match.name } : null));
      }
      return { signups: views, total, pending, page: query.page, pageSize: query.pageSize };
    },

    /**
     * Confirms a waiting sign-up in one transaction: the customer made from it (and audited as a
     * customer created) or the one chosen, then the agreement by `createIn` (the profile's rule: active from
     * the start date, its first term, the visits already due), the lead settled and the visitor told.
     */
    async confirm(id: string, input: z.output<typeof agreementSignupConfirmSchema>, actor: AuditActor): Promise<AgreementSignup> {
      if (!isUuid(id)) throw notFound();
      await settleBeforeDecision(id);
      const result = await withTransaction(db, async (tx) => {
        const before = await lockPending(tx, id);
        const customers = customerRepository(tx);
        let customerId: string;
        if (input.customer.mode === 'existing') {
          const existing = await customers.findById(input.customer.customerId);
          if (!existing) {
            throw new AppError('VALIDATION_FAILED', agreementSignupMessages.customerNotFound, [{ path: 'customer.customerId', message: agreementSignupMessages.customerNotFound }]);
          }
          customerId = existing.id;
        } else {
          const created = await customers.insert(
            customerInputSchema.parse({ name: before.name, phone: before.phone, email: before.email, address: before.address, city: before.city, state: company.address.state, zip: before.zip }),
          );
          await recordCustomerChange(tx, actor, 'created', undefined, created);
          customerId = created.id;
        }
        const reference = agreementSignupReference(before.id);
        const agreement = await agreements.createIn(
          tx,
          customerId,
          agreementCreateSchema.parse({
            planId: before.planId,
            billing: before.billing,
            startDate: input.startDate ?? todayIn(timeZone, now()),
            notes: `From the site's sign-up ${reference}.${before.note ? ` Note: ${before.note}` : ''}`.slice(0, 2000),
          }),
          actor,
          { leadId: before.leadId },
        );
        // Paid online (decision 027-c): the first term's invoice, issued, with the payment on it.
        let invoice: { id: string; invoiceNumber: string } | undefined;
        if (before.paymentStatus === 'paid' && before.paymentIntentId && before.paidCents !== null) {
          invoice = await invoices.createIssuedIn(tx, await agreements.termInvoiceIn(tx, agreement.id), actor);
          await invoices.recordPaymentIn(tx, invoice.id, before.paymentIntentId, before.paidCents);
          await repository(tx).setPayment(id, { invoiceId: invoice.id });
        }
        const after = await repository(tx).decide(id, { status: 'confirmed', agreementId: agreement.id, customerId });
        if (before.leadId) await leadRepository(tx).settleLead(before.leadId, { status: 'completed', customerId });
        await audit(tx, actor, before, after, 'confirmed', {
          agreement: [null, agreement.agreementNumber],
          isNewCustomer: [null, input.customer.mode === 'new'],
          ...(invoice ? { invoice: [null, invoice.invoiceNumber] } : {}),
        });
        await outbox.enqueue(tx, [confirmedEmail(after, agreement, invoice)]);
        return viewIn(tx, id);
      });
      outbox.kick();
      return result;
    },

    /**
     * Declines a waiting sign-up with a reason (the office calls the visitor; no e-mail goes out). A
     * payment made online is refunded first; Stripe failing leaves the sign-up waiting (502).
     */
    async decline(id: string, reason: string, actor: AuditActor): Promise<AgreementSignup> {
      if (!isUuid(id)) throw notFound();
      const paid = await settleBeforeDecision(id);
      const refund = paid ? await payments.refund(paid) : null;
      return withTransaction(db, async (tx) => {
        const before = await lockPending(tx, id);
        if (refund) await repository(tx).setPayment(id, { paymentStatus: 'refunded', refundId: refund.refundId, refundedAt: before.refundedAt ?? now() });
        const after = await repository(tx).decide(id, { status: 'declined', declineReason: reason });
        if (before.leadId) await leadRepository(tx).settleLead(before.leadId, { status: 'cancelled' });
        await audit(tx, actor, before, after, 'declined', refund ? { refundId: [null, refund.refundId] } : {});
        return viewIn(tx, id);
      });
    },
  };
}

export type AgreementSignupService = ReturnType<typeof createAgreementSignupService>;
