-- Batches are written in the compact form from now on (request-log-batch.ts, encodeSlots); those
-- stored before keep the array form, which is still read. Nothing to change here.
SELECT 1;
