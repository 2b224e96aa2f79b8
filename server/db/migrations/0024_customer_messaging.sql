-- Customer messaging (issue 18, decision 021-a): messages (the schedule and the history), the
-- work orders waiting for the planner (message_triggers, filled by a row trigger on work_orders),
-- consent per customer and channel, admins' template edits and the messaging settings (one row).
CREATE TABLE "customer_message_consents" (
	"customer_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by" uuid,
	"undeliverable_at" timestamp with time zone,
	"undeliverable_number" text,
	CONSTRAINT "customer_message_consents_pkey" PRIMARY KEY("customer_id","channel"),
	CONSTRAINT "customer_message_consents_channel_check" CHECK ("customer_message_consents"."channel" in ('email', 'sms')),
	CONSTRAINT "customer_message_consents_status_check" CHECK ("customer_message_consents"."status" in ('opted_in', 'opted_out')),
	CONSTRAINT "customer_message_consents_source_check" CHECK ("customer_message_consents"."source" in ('form', 'staff', 'reply', 'default'))
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"type" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"email_body" text NOT NULL,
	"sms_body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "message_templates_type_check" CHECK ("message_templates"."type" in ('appointment_confirmed', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder', 'on_my_way', 'visit_completed', 'estimate_received'))
);
--> statement-breakpoint
CREATE TABLE "message_triggers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"work_order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"channel" text NOT NULL,
	"customer_id" uuid,
	"work_order_id" uuid,
	"recipient" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"appointment_version" text,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"subject" text,
	"body" text,
	"provider_id" text,
	"email_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "messages_type_check" CHECK ("messages"."type" in ('appointment_confirmed', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder', 'on_my_way', 'visit_completed', 'estimate_received')),
	CONSTRAINT "messages_channel_check" CHECK ("messages"."channel" in ('email', 'sms')),
	CONSTRAINT "messages_status_check" CHECK ("messages"."status" in ('scheduled', 'sending', 'sent', 'failed', 'skipped', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "messaging_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"reminder_lead_hours" integer DEFAULT 24 NOT NULL,
	"quiet_start" time DEFAULT '21:00' NOT NULL,
	"quiet_end" time DEFAULT '08:00' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_settings_single_row_check" CHECK ("messaging_settings"."id" = 1),
	CONSTRAINT "messaging_settings_reminder_lead_check" CHECK ("messaging_settings"."reminder_lead_hours" between 1 and 168)
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "phone_last10" text GENERATED ALWAYS AS (right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)) STORED;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "en_route_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "customer_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_message_consents" ADD CONSTRAINT "customer_message_consents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_message_consents" ADD CONSTRAINT "customer_message_consents_changed_by_staff_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_updated_by_staff_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_work_order_id_work_orders_id_fk" FOREIGN KEY ("work_order_id") REFERENCES "public"."work_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_email_id_outbound_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."outbound_emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_dedupe_key_key" ON "messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("send_at") WHERE "messages"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "messages_sending_idx" ON "messages" USING btree ("claimed_until") WHERE "messages"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "messages_work_order_idx" ON "messages" USING btree ("work_order_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_customer_idx" ON "messages" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_phone_last10_idx" ON "customers" USING btree ("phone_last10");--> statement-breakpoint
CREATE FUNCTION message_triggers_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_triggers (work_order_id) VALUES (NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER work_orders_message_trigger_insert AFTER INSERT ON work_orders
  FOR EACH ROW EXECUTE FUNCTION message_triggers_enqueue();
--> statement-breakpoint
CREATE TRIGGER work_orders_message_trigger_update AFTER UPDATE ON work_orders
  FOR EACH ROW WHEN (
    NEW.scheduled_date IS DISTINCT FROM OLD.scheduled_date
    OR NEW.scheduled_start_time IS DISTINCT FROM OLD.scheduled_start_time
    OR NEW.scheduled_end_time IS DISTINCT FROM OLD.scheduled_end_time
    OR NEW.status IS DISTINCT FROM OLD.status
    OR NEW.technician_id IS DISTINCT FROM OLD.technician_id
    OR NEW.en_route_at IS DISTINCT FROM OLD.en_route_at
  ) EXECUTE FUNCTION message_triggers_enqueue();
