-- An access token may manage its account's access tokens through the management API only when it was
-- made to (the dashboard's "may manage access tokens"; tokens made before could not, and still cannot).
ALTER TABLE access_tokens ADD COLUMN manages_tokens BOOLEAN NOT NULL DEFAULT false;
