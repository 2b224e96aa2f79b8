-- The searches read customer_search and work_order_search (0028, decision 023-a): the trigram and
-- prefix indexes they replaced serve no query now, and each cost every insert and edit their upkeep.
DROP INDEX "customers_search_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_title_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_description_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_number_trgm_idx";--> statement-breakpoint
DROP INDEX "work_orders_number_prefix_idx";--> statement-breakpoint
DROP INDEX "work_orders_other_number_trgm_idx";