DROP TRIGGER invitations_outbox_discard ON invitations;
DROP FUNCTION invitations_outbox_discard();
DROP TABLE outbox;
