-- One row that /readyz rewrites to prove the database takes durable writes.
CREATE TABLE readiness_probe (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  checked_at INTEGER NOT NULL
);
