-- Invitations are mailed from now on, and the inviter never sees the link. The link of every
-- invitation made before was shown to whoever made it, who could open it and choose the password of
-- an address that is not theirs: those still pending stop working (the owner invites again, by mail).
UPDATE invitations SET expires_at = created_at WHERE accepted_at IS NULL AND expires_at > created_at;
