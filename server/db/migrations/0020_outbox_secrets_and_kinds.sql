ALTER TABLE "outbound_emails" ADD COLUMN "carries_secret" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "kind" text;--> statement-breakpoint
-- Set-password links queued before this migration are secrets too; the sent ones lose their body now.
UPDATE "outbound_emails" SET "carries_secret" = true WHERE "related_type" = 'staff_user';--> statement-breakpoint
UPDATE "outbound_emails" SET "text_body" = '(removed: this message carried a one-time link)', "html_body" = NULL WHERE "carries_secret" AND "status" <> 'pending';--> statement-breakpoint
CREATE INDEX "outbound_emails_kind_created_at_idx" ON "outbound_emails" USING btree ("kind","created_at") WHERE "outbound_emails"."kind" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbound_emails_finished_idx" ON "outbound_emails" USING btree ("created_at") WHERE "outbound_emails"."status" <> 'pending';
