-- Live updates (issue 9): a geocoding batch's progress (each address done updates its counters) is
-- published like the other tables (migration 0010's notify_live_change), so the map and the
-- geocoding setup page follow a batch run by the server, on every instance.
CREATE TRIGGER geocoding_batches_live_change AFTER INSERT OR UPDATE OR DELETE ON geocoding_batches
  FOR EACH STATEMENT EXECUTE FUNCTION notify_live_change();
