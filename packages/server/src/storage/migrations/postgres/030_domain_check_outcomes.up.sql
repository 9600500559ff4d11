-- A check that got no DNS answer (timeout, refusal, SERVFAIL) changes no state: it is kept here, with how
-- many such checks ran in a row (the retry backoff). wrong_since: when a verified domain's records were
-- first seen wrong in the current run of answered checks (it is unserved only an hour later).
ALTER TABLE custom_domains ADD COLUMN check_error TEXT NULL;
ALTER TABLE custom_domains ADD COLUMN check_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE custom_domains ADD COLUMN wrong_since BIGINT NULL;
