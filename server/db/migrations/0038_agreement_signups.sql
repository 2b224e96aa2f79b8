CREATE TABLE "maintenance_agreement_signups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" text NOT NULL,
	"billing" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"zip" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decline_reason" text,
	"agreement_id" uuid,
	"customer_id" uuid,
	"lead_id" uuid,
	"idempotency_key" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_agreement_signups_plan_check" CHECK ("maintenance_agreement_signups"."plan_id" in ('essential', 'advanced', 'premium')),
	CONSTRAINT "maintenance_agreement_signups_billing_check" CHECK ("maintenance_agreement_signups"."billing" in ('yearly', 'monthly')),
	CONSTRAINT "maintenance_agreement_signups_status_check" CHECK ("maintenance_agreement_signups"."status" in ('pending', 'confirmed', 'declined')),
	CONSTRAINT "maintenance_agreement_signups_decline_check" CHECK ("maintenance_agreement_signups"."status" <> 'declined' or "maintenance_agreement_signups"."decline_reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD CONSTRAINT "maintenance_agreement_signups_agreement_id_maintenance_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."maintenance_agreements"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD CONSTRAINT "maintenance_agreement_signups_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_signups" ADD CONSTRAINT "maintenance_agreement_signups_lead_id_estimate_requests_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."estimate_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_agreement_signups_idempotency_key_key" ON "maintenance_agreement_signups" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "maintenance_agreement_signups_status_created_idx" ON "maintenance_agreement_signups" USING btree ("status","created_at");--> statement-breakpoint
-- Live updates: a sign-up from the site, confirmed or declined, reaches the office's "Plan sign-ups"
-- list on the topic of the agreements (maintenance_agreements, shared/live-events.ts): the trigger
-- names its topic, which notify_live_change now takes as an optional argument.
CREATE OR REPLACE FUNCTION notify_live_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hvac_changes', json_build_object('topic', CASE WHEN TG_NARGS > 0 THEN TG_ARGV[0] ELSE TG_TABLE_NAME END, 'action', lower(TG_OP))::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER maintenance_agreement_signups_live_change AFTER INSERT OR UPDATE OR DELETE ON maintenance_agreement_signups
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change('maintenance_agreements');
