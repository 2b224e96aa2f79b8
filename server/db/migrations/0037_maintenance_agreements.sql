CREATE SEQUENCE "public"."agreement_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1;--> statement-breakpoint
CREATE TABLE "maintenance_agreement_equipment" (
	"agreement_id" uuid NOT NULL,
	"equipment_id" uuid NOT NULL,
	CONSTRAINT "maintenance_agreement_equipment_agreement_id_equipment_id_pk" PRIMARY KEY("agreement_id","equipment_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_agreement_terms" (
	"agreement_id" uuid NOT NULL,
	"term_number" integer NOT NULL,
	"plan_id" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"price_cents" integer NOT NULL,
	"renewal_reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_agreement_terms_agreement_id_term_number_pk" PRIMARY KEY("agreement_id","term_number")
);
--> statement-breakpoint
CREATE TABLE "maintenance_agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agreement_number" text DEFAULT 'MA-' || nextval('agreement_number_seq') NOT NULL,
	"customer_id" uuid NOT NULL,
	"plan_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"start_date" date NOT NULL,
	"term_months" integer DEFAULT 12 NOT NULL,
	"current_term_number" integer DEFAULT 1 NOT NULL,
	"current_term_starts_on" date NOT NULL,
	"current_term_ends_on" date NOT NULL,
	"price_cents" integer NOT NULL,
	"billing" text DEFAULT 'yearly' NOT NULL,
	"auto_renew" boolean DEFAULT true NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancellation_reason" text,
	"lead_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_agreements_plan_check" CHECK ("maintenance_agreements"."plan_id" in ('essential', 'advanced', 'premium')),
	CONSTRAINT "maintenance_agreements_status_check" CHECK ("maintenance_agreements"."status" in ('pending', 'active', 'cancelled', 'expired')),
	CONSTRAINT "maintenance_agreements_billing_check" CHECK ("maintenance_agreements"."billing" in ('yearly', 'monthly')),
	CONSTRAINT "maintenance_agreements_term_check" CHECK ("maintenance_agreements"."current_term_ends_on" >= "maintenance_agreements"."current_term_starts_on")
);
--> statement-breakpoint
CREATE TABLE "maintenance_visits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agreement_id" uuid NOT NULL,
	"period" text NOT NULL,
	"season" text NOT NULL,
	"term_number" integer NOT NULL,
	"due_from" date NOT NULL,
	"due_by" date NOT NULL,
	"work_order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_visits_season_check" CHECK ("maintenance_visits"."season" in ('spring', 'fall'))
);
--> statement-breakpoint
ALTER TABLE "maintenance_agreement_equipment" ADD CONSTRAINT "maintenance_agreement_equipment_agreement_id_maintenance_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."maintenance_agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_equipment" ADD CONSTRAINT "maintenance_agreement_equipment_equipment_id_equipment_id_fk" FOREIGN KEY ("equipment_id") REFERENCES "public"."equipment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_terms" ADD CONSTRAINT "maintenance_agreement_terms_agreement_id_maintenance_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."maintenance_agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_agreements" ADD CONSTRAINT "maintenance_agreements_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_visits" ADD CONSTRAINT "maintenance_visits_agreement_id_maintenance_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."maintenance_agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_visits" ADD CONSTRAINT "maintenance_visits_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_agreement_equipment_equipment_idx" ON "maintenance_agreement_equipment" USING btree ("equipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_agreements_number_key" ON "maintenance_agreements" USING btree ("agreement_number");--> statement-breakpoint
CREATE INDEX "maintenance_agreements_customer_idx" ON "maintenance_agreements" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "maintenance_agreements_status_term_end_idx" ON "maintenance_agreements" USING btree ("status","current_term_ends_on");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_visits_agreement_period_key" ON "maintenance_visits" USING btree ("agreement_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_visits_work_order_key" ON "maintenance_visits" USING btree ("work_order_id");--> statement-breakpoint
CREATE INDEX "maintenance_visits_due_idx" ON "maintenance_visits" USING btree ("due_from","due_by");--> statement-breakpoint
-- Live updates: an agreement sold, changed, renewed or cancelled reaches open profiles and the
-- dashboard (topic maintenance_agreements, shared/live-events.ts).
CREATE TRIGGER maintenance_agreements_live_change AFTER INSERT OR UPDATE OR DELETE ON maintenance_agreements
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
