-- result_preview holds, for a result larger than a card shows
-- (domain.ResultPreview), what a card shows of it: pages list calls with
-- it, so opening a page reads kilobytes per call, not up to the result cap;
-- Show more, Copy and downloads read result. NULL when the result is small
-- enough to be listed whole, or for rows stored before this column.
ALTER TABLE invocations ADD COLUMN result_preview BLOB;
