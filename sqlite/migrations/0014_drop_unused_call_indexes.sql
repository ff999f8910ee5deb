-- Every finished call writes one invocations row and one audit_log row,
-- and SQLite keeps each of their indexes up to date on the writer's
-- thread, which shares the machine with the caller and the tool server.
-- Two indexes were kept that no query reads (EXPLAIN QUERY PLAN of each
-- query in this package, see index_use_test.go): listing by source or
-- client walks invocations_newest, which already has the order asked for,
-- and nothing reads the audit log by scope. Dropping them saves two
-- B-tree inserts per call.
DROP INDEX IF EXISTS invocations_by_source;
DROP INDEX IF EXISTS audit_log_scope;
