-- error_code names, for an error Switchboard itself caused, what went wrong
-- in a form the dashboard can translate ('interrupted': the process running
-- the call stopped before the server answered). Empty for the tool's own
-- errors.
ALTER TABLE invocations ADD COLUMN error_code TEXT NOT NULL DEFAULT '';

-- owner is the Switchboard process that wrote the call: at start, a process
-- ends the unfinished calls of owners that no longer run, and leaves those
-- of a process still running on the same database alone. Rows written
-- before this migration have no owner, which no live process has either.
ALTER TABLE invocations ADD COLUMN owner TEXT NOT NULL DEFAULT '';

-- Recovery looks for unfinished calls across every scope.
CREATE INDEX invocations_unfinished ON invocations (owner)
	WHERE status NOT IN ('success', 'error', 'cancelled');
