ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "payment_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "checkout_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "paid_cents" integer;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD COLUMN "invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD CONSTRAINT "maintenance_agreement_signups_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_agreement_signups_checkout_session_key" ON "maintenance_agreement_signups" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_agreement_signups_payment_intent_key" ON "maintenance_agreement_signups" USING btree ("payment_intent_id");--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD CONSTRAINT "maintenance_agreement_signups_payment_status_check" CHECK ("maintenance_agreement_signups"."payment_status" in ('none', 'awaiting', 'paid', 'refunded', 'expired'));