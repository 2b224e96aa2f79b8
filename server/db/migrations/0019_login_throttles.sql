CREATE TABLE "login_throttles" (
	"scope" text NOT NULL,
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_throttles_pkey" PRIMARY KEY("scope","email","ip_address"),
	CONSTRAINT "login_throttles_scope_check" CHECK ("login_throttles"."scope" in ('pair', 'address', 'account')),
	CONSTRAINT "login_throttles_failures_check" CHECK ("login_throttles"."failures" >= 0)
);
--> statement-breakpoint
CREATE INDEX "login_throttles_updated_at_idx" ON "login_throttles" USING btree ("updated_at");
