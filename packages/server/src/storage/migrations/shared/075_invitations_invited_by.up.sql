-- Removing a member or an account revokes the pending invitations it made: found by their maker
-- (and the SET NULL of an account's deletion no longer reads every invitation).
CREATE INDEX invitations_invited_by ON invitations (invited_by);
