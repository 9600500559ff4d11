DROP TRIGGER accounts_outbox_discard;
DROP TRIGGER invitations_outbox_discard;
DROP TABLE outbox;
