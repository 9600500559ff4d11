-- The outbox (issue 47): what the service has to deliver (mail now, webhooks next), written in the
-- transaction of the change that causes it and handed over by one instance at a time (mail/outbox.ts,
-- storage/outbox-records.ts). A row is queued until delivered (sent) or given up (failed); its id is
-- the mail's Message-ID, so a delivery repeated after a crash is the same message. lease_owner and
-- lease_until mark the instance handing it over now: another takes it only once that lease ran out.
CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  topic TEXT NOT NULL,
  subject_ref TEXT NULL,
  payload JSONB NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  lease_owner TEXT NULL,
  lease_until BIGINT NULL,
  last_error TEXT NULL,
  created_at BIGINT NOT NULL,
  sent_at BIGINT NULL
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state = 'queued';
CREATE INDEX outbox_subject ON outbox (subject_ref, created_at) WHERE subject_ref IS NOT NULL;
CREATE INDEX outbox_done ON outbox (created_at) WHERE state <> 'queued';

-- An invitation revoked or removed (by its owner, with its maker, with an account) takes its mail
-- still waiting with it: its link would no longer work.
CREATE FUNCTION invitations_outbox_discard() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM outbox WHERE subject_ref = OLD.id AND state = 'queued';
  RETURN NULL;
END
$$;
CREATE TRIGGER invitations_outbox_discard AFTER DELETE ON invitations
  FOR EACH ROW EXECUTE FUNCTION invitations_outbox_discard();

-- An account removed takes the mails about it (a reset link's) with it, waiting or done: nothing of
-- the person stays behind in the outbox.
CREATE FUNCTION accounts_outbox_discard() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM outbox WHERE subject_ref = OLD.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER accounts_outbox_discard AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION accounts_outbox_discard();
