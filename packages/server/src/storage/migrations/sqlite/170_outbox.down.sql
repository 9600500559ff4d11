DROP TRIGGER invitations_outbox_discard;
DROP TABLE outbox;
