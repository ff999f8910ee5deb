-- details holds, as JSON, what the card says about a call beyond its
-- result: the arguments filled from schema defaults, the schema violations
-- it was sent with anyway and, for a call that runs as a task, the task's
-- last status. NULL when there is nothing to say.
ALTER TABLE invocations ADD COLUMN details TEXT;
