DROP TRIGGER accounts_outbox_discard ON accounts;
DROP FUNCTION accounts_outbox_discard();
DROP TRIGGER invitations_outbox_discard ON invitations;
DROP FUNCTION invitations_outbox_discard();
DROP TABLE outbox;
