CREATE TABLE "billing_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"quote_validity_days" integer DEFAULT 30 NOT NULL,
	"invoice_footer" text DEFAULT '' NOT NULL,
	"reminders_enabled" boolean DEFAULT true NOT NULL,
	"reminder_days" integer[] DEFAULT '{7,14,30}'::integer[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_settings_single_row_check" CHECK ("billing_settings"."id" = 1),
	CONSTRAINT "billing_settings_terms_check" CHECK ("billing_settings"."payment_terms_days" between 0 and 365),
	CONSTRAINT "billing_settings_validity_check" CHECK ("billing_settings"."quote_validity_days" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"kind" text PRIMARY KEY NOT NULL,
	"next_number" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "document_counters_kind_check" CHECK ("document_counters"."kind" in ('invoice', 'credit_note', 'quote')),
	CONSTRAINT "document_counters_next_check" CHECK ("document_counters"."next_number" >= 1)
);
--> statement-breakpoint
CREATE TABLE "document_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"document_type" text NOT NULL,
	"document_id" uuid NOT NULL,
	"link_version" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_opened_at" timestamp with time zone,
	CONSTRAINT "document_links_type_check" CHECK ("document_links"."document_type" in ('quote', 'invoice'))
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" integer NOT NULL,
	"price_book_item_id" uuid,
	"kind" text DEFAULT 'service' NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"quantity_milli" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"discount_bps" integer DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"taxable" boolean DEFAULT false NOT NULL,
	"tax_rate_ppm" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint NOT NULL,
	"invoice_id" uuid NOT NULL,
	CONSTRAINT "invoice_lines_kind_check" CHECK ("invoice_lines"."kind" in ('service', 'labor', 'part', 'equipment', 'task')),
	CONSTRAINT "invoice_lines_quantity_check" CHECK ("invoice_lines"."quantity_milli" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text DEFAULT 'invoice' NOT NULL,
	"invoice_number" text,
	"customer_id" uuid NOT NULL,
	"work_order_id" uuid,
	"quote_id" uuid,
	"credited_invoice_id" uuid,
	"replaces_invoice_id" uuid,
	"status" text DEFAULT 'draft' NOT NULL,
	"issued_on" date,
	"due_on" date,
	"billing_name" text NOT NULL,
	"billing_address_lines" text[] DEFAULT '{}'::text[] NOT NULL,
	"billing_email" text,
	"billing_phone" text,
	"notes" text DEFAULT '' NOT NULL,
	"subtotal_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"taxes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"balance_cents" bigint GENERATED ALWAYS AS (total_cents - paid_cents) STORED,
	"sent_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"last_reminder_at" timestamp with time zone,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"link_version" integer DEFAULT 1 NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('invoice', 'credit_note')),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('draft', 'sent', 'partially_paid', 'paid', 'void')),
	CONSTRAINT "invoices_number_when_issued_check" CHECK (("invoices"."status" = 'draft') = ("invoices"."invoice_number" is null)),
	CONSTRAINT "invoices_credit_note_check" CHECK (("invoices"."kind" = 'credit_note') = ("invoices"."credited_invoice_id" is not null)),
	CONSTRAINT "invoices_total_check" CHECK ("invoices"."total_cents" >= 0),
	CONSTRAINT "invoices_void_reason_check" CHECK ("invoices"."status" <> 'void' or "invoices"."void_reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "payment_checkouts" (
	"session_id" text PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"kind" text DEFAULT 'payment' NOT NULL,
	"method" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"received_on" date NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"refund_of_payment_id" uuid,
	"credit_note_id" uuid,
	"provider_payment_id" text,
	"idempotency_key" text,
	"recorded_by_id" uuid,
	"recorded_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_kind_check" CHECK ("payments"."kind" in ('payment', 'refund')),
	CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('cash', 'check', 'card', 'bank_transfer', 'online_card', 'credit_note', 'other')),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_refund_check" CHECK (("payments"."kind" = 'refund') = ("payments"."refund_of_payment_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "price_book_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT 'each' NOT NULL,
	"price_cents" bigint NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	"taxable" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_book_items_kind_check" CHECK ("price_book_items"."kind" in ('service', 'labor', 'part', 'equipment', 'task')),
	CONSTRAINT "price_book_items_price_check" CHECK ("price_book_items"."price_cents" between -1000000000 and 1000000000),
	CONSTRAINT "price_book_items_cost_check" CHECK ("price_book_items"."cost_cents" between 0 and 1000000000)
);
--> statement-breakpoint
CREATE TABLE "quote_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" integer NOT NULL,
	"price_book_item_id" uuid,
	"kind" text DEFAULT 'service' NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"quantity_milli" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"discount_bps" integer DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"taxable" boolean DEFAULT false NOT NULL,
	"tax_rate_ppm" integer DEFAULT 0 NOT NULL,
	"amount_cents" bigint NOT NULL,
	"option_id" uuid NOT NULL,
	CONSTRAINT "quote_lines_kind_check" CHECK ("quote_lines"."kind" in ('service', 'labor', 'part', 'equipment', 'task')),
	CONSTRAINT "quote_lines_quantity_check" CHECK ("quote_lines"."quantity_milli" > 0)
);
--> statement-breakpoint
CREATE TABLE "quote_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quote_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"subtotal_cents" bigint DEFAULT 0 NOT NULL,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quote_number" text,
	"customer_id" uuid NOT NULL,
	"work_order_id" uuid,
	"estimate_request_id" uuid,
	"ai_lead_id" uuid,
	"title" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"valid_until" date,
	"sent_at" timestamp with time zone,
	"approved_option_id" uuid,
	"approved_at" timestamp with time zone,
	"approved_by_name" text,
	"approval_signature_key" text,
	"approval_ip" text,
	"declined_at" timestamp with time zone,
	"resulting_work_order_id" uuid,
	"link_version" integer DEFAULT 1 NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_status_check" CHECK ("quotes"."status" in ('draft', 'sent', 'approved', 'declined', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"rate_ppm" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_rate_check" CHECK ("tax_rates"."rate_ppm" between 0 and 1000000)
);
--> statement-breakpoint
ALTER TABLE "message_templates" DROP CONSTRAINT "message_templates_type_check";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_type_check";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "document_type" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "document_id" uuid;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_price_book_item_id_price_book_items_id_fk" FOREIGN KEY ("price_book_item_id") REFERENCES "public"."price_book_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_invoice_id_invoices_id_fk" FOREIGN KEY ("credited_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_replaces_invoice_id_invoices_id_fk" FOREIGN KEY ("replaces_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_id_staff_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_checkouts" ADD CONSTRAINT "payment_checkouts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_of_payment_id_payments_id_fk" FOREIGN KEY ("refund_of_payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credit_note_id_invoices_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_recorded_by_id_staff_users_id_fk" FOREIGN KEY ("recorded_by_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_price_book_item_id_price_book_items_id_fk" FOREIGN KEY ("price_book_item_id") REFERENCES "public"."price_book_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_option_id_quote_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."quote_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_options" ADD CONSTRAINT "quote_options_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_estimate_request_id_estimate_requests_id_fk" FOREIGN KEY ("estimate_request_id") REFERENCES "public"."estimate_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_ai_lead_id_ai_leads_id_fk" FOREIGN KEY ("ai_lead_id") REFERENCES "public"."ai_leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_resulting_work_order_id_work_orders_id_fk" FOREIGN KEY ("resulting_work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_created_by_id_staff_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_links_document_idx" ON "document_links" USING btree ("document_type","document_id");--> statement-breakpoint
CREATE INDEX "document_links_expires_at_idx" ON "document_links" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_position_key" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_invoice_number_key" ON "invoices" USING btree ("invoice_number");--> statement-breakpoint
CREATE INDEX "invoices_list_order_idx" ON "invoices" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_status_list_order_idx" ON "invoices" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_customer_id_idx" ON "invoices" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_work_order_id_idx" ON "invoices" USING btree ("work_order_id") WHERE "invoices"."work_order_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_open_due_idx" ON "invoices" USING btree ("due_on") WHERE "invoices"."status" in ('sent', 'partially_paid');--> statement-breakpoint
CREATE INDEX "invoices_paid_at_idx" ON "invoices" USING btree ("paid_at") WHERE "invoices"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "invoices_search_trgm_idx" ON "invoices" USING gin ((lower(coalesce("invoice_number", '') || ' ' || "billing_name")) gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "payment_checkouts_invoice_id_idx" ON "payment_checkouts" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_invoice_id_idx" ON "payments" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_received_on_idx" ON "payments" USING btree ("received_on","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_payment_key" ON "payments" USING btree ("kind","provider_payment_id") WHERE "payments"."provider_payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key" ON "payments" USING btree ("idempotency_key") WHERE "payments"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "price_book_items_code_key" ON "price_book_items" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "price_book_items_list_idx" ON "price_book_items" USING btree ("active","category",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "price_book_items_search_trgm_idx" ON "price_book_items" USING gin ((lower("code" || ' ' || "name" || ' ' || "category" || ' ' || "description")) gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE UNIQUE INDEX "quote_lines_position_key" ON "quote_lines" USING btree ("option_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "quote_options_position_key" ON "quote_options" USING btree ("quote_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_quote_number_key" ON "quotes" USING btree ("quote_number");--> statement-breakpoint
CREATE INDEX "quotes_list_order_idx" ON "quotes" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quotes_customer_id_idx" ON "quotes" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "quotes_work_order_id_idx" ON "quotes" USING btree ("work_order_id") WHERE "quotes"."work_order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_one_default_key" ON "tax_rates" USING btree ("is_default") WHERE "tax_rates"."is_default";--> statement-breakpoint
CREATE INDEX "messages_document_idx" ON "messages" USING btree ("document_id","created_at") WHERE "messages"."document_id" is not null;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_type_check" CHECK ("message_templates"."type" in ('appointment_confirmed', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder', 'on_my_way', 'visit_completed', 'estimate_received', 'quote_sent', 'invoice_sent', 'invoice_overdue'));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_document_check" CHECK (("messages"."document_type" is null) = ("messages"."document_id" is null) and ("messages"."document_type" is null or "messages"."document_type" in ('quote', 'invoice')));--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_type_check" CHECK ("messages"."type" in ('appointment_confirmed', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder', 'on_my_way', 'visit_completed', 'estimate_received', 'quote_sent', 'invoice_sent', 'invoice_overdue'));--> statement-breakpoint
CREATE TRIGGER price_book_items_live_change AFTER INSERT OR UPDATE OR DELETE ON price_book_items
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER quotes_live_change AFTER INSERT OR UPDATE OR DELETE ON quotes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER invoices_live_change AFTER INSERT OR UPDATE OR DELETE ON invoices
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
--> statement-breakpoint
CREATE TRIGGER payments_live_change AFTER INSERT OR UPDATE OR DELETE ON payments
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
