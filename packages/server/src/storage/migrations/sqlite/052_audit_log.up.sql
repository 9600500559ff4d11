-- Who did what, when and from where: every dashboard and operator action. `project_id` is null for an
-- account's own actions (sign-in, password change); `actor` is the account's email, or `operator` for
-- the command line; `address` the client address (null from the command line).
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  project_id TEXT NULL,
  actor_account_id TEXT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NULL,
  address TEXT NULL
);
CREATE INDEX audit_log_project_at ON audit_log (project_id, at DESC, id DESC);
CREATE INDEX audit_log_actor_at ON audit_log (actor_account_id, at DESC, id DESC);
