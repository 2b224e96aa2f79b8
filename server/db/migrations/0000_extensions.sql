-- Substring searches over customers and work orders use trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
