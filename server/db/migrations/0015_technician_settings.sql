CREATE UNIQUE INDEX "technicians_active_name_key" ON "technicians" USING btree (lower("name")) WHERE "technicians"."active";--> statement-breakpoint
-- Live updates: a technician added, renamed, recoloured or deactivated in settings reaches every open
-- calendar and picker (topic 'technicians', shared/live-events.ts). notify_live_change() is from
-- the live_change_notifications migration.
CREATE TRIGGER technicians_live_change AFTER INSERT OR UPDATE OR DELETE ON technicians
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
