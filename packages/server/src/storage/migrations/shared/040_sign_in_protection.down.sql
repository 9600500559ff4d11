ALTER TABLE memberships DROP COLUMN role;
DROP TABLE session_flashes;
ALTER TABLE accounts DROP COLUMN devices_valid_after;
DROP TABLE sign_in_throttles;
DROP TABLE server_secrets;
