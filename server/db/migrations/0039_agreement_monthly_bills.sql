CREATE TABLE "maintenance_agreement_bills" (
	"agreement_id" uuid NOT NULL,
	"term_number" integer NOT NULL,
	"month" integer NOT NULL,
	"invoice_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "maintenance_agreement_bills_agreement_id_term_number_month_pk" PRIMARY KEY("agreement_id","term_number","month"),
	CONSTRAINT "maintenance_agreement_bills_month_check" CHECK ("maintenance_agreement_bills"."month" between 2 and 12)
);
--> statement-breakpoint
ALTER TABLE "maintenance_agreement_bills" ADD CONSTRAINT "maintenance_agreement_bills_agreement_id_maintenance_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."maintenance_agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_agreement_bills" ADD CONSTRAINT "maintenance_agreement_bills_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;