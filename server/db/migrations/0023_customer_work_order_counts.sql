-- Keeps customer_work_order_counts equal to "select customer_id, count(*), count(*) filter (where
-- status in ('pending', 'scheduled', 'in-progress')) from work_orders group by customer_id": the
-- service map's per-customer counts without reading every work order (decision 020-h). Statement
-- triggers with transition tables, as work_order_status_counts (0008): a bulk insert costs one
-- upsert per customer; an update that moves no work order between customers or in or out of the
-- active statuses touches no count.
CREATE TABLE "customer_work_order_counts" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"total" integer NOT NULL,
	"active" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_work_order_counts" ADD CONSTRAINT "customer_work_order_counts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE FUNCTION customer_work_order_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM customer_work_order_counts;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_work_order_counts (customer_id, total, active)
    SELECT customer_id, count(*), count(*) FILTER (WHERE status IN ('pending', 'scheduled', 'in-progress')) FROM new_rows GROUP BY customer_id
    ON CONFLICT (customer_id) DO UPDATE
      SET total = customer_work_order_counts.total + excluded.total, active = customer_work_order_counts.active + excluded.active;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE customer_work_order_counts AS counts SET total = counts.total - removed.total, active = counts.active - removed.active
    FROM (
      SELECT customer_id, count(*) AS total, count(*) FILTER (WHERE status IN ('pending', 'scheduled', 'in-progress')) AS active
      FROM old_rows GROUP BY customer_id
    ) AS removed
    WHERE counts.customer_id = removed.customer_id;
  ELSE
    INSERT INTO customer_work_order_counts (customer_id, total, active)
    SELECT customer_id, sum(total), sum(active) FROM (
      SELECT customer_id, 1 AS total, CASE WHEN status IN ('pending', 'scheduled', 'in-progress') THEN 1 ELSE 0 END AS active FROM new_rows
      UNION ALL
      SELECT customer_id, -1, CASE WHEN status IN ('pending', 'scheduled', 'in-progress') THEN -1 ELSE 0 END FROM old_rows
    ) AS moves
    GROUP BY customer_id
    HAVING sum(total) <> 0 OR sum(active) <> 0
    ON CONFLICT (customer_id) DO UPDATE
      SET total = customer_work_order_counts.total + excluded.total, active = customer_work_order_counts.active + excluded.active;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER work_orders_customer_count_insert AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_work_order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER work_orders_customer_count_update AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_work_order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER work_orders_customer_count_delete AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_work_order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER work_orders_customer_count_truncate AFTER TRUNCATE ON work_orders
  FOR EACH STATEMENT EXECUTE FUNCTION customer_work_order_counts_apply();
--> statement-breakpoint
INSERT INTO customer_work_order_counts (customer_id, total, active)
SELECT customer_id, count(*), count(*) FILTER (WHERE status IN ('pending', 'scheduled', 'in-progress')) FROM work_orders GROUP BY customer_id;
