CREATE TABLE "inbound_texts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" text NOT NULL,
	"from_number" text NOT NULL,
	"body" text NOT NULL,
	"kind" text NOT NULL,
	"customer_id" uuid,
	"work_order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_texts_kind_check" CHECK ("inbound_texts"."kind" in ('stop', 'start', 'help', 'confirm', 'reschedule', 'other'))
);
--> statement-breakpoint
ALTER TABLE "estimate_requests" ADD COLUMN "sms_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_texts" ADD CONSTRAINT "inbound_texts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_texts" ADD CONSTRAINT "inbound_texts_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_texts_provider_id_key" ON "inbound_texts" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "inbound_texts_customer_idx" ON "inbound_texts" USING btree ("customer_id","created_at");