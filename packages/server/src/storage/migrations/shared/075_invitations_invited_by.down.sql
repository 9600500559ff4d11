DROP INDEX invitations_invited_by;
