-- One row that /readyz rewrites to prove the database takes durable writes.
CREATE TABLE readiness_probe (
  id SMALLINT PRIMARY KEY CHECK (id = 1),
  checked_at BIGINT NOT NULL
);
