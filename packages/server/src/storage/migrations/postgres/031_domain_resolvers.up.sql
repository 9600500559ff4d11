-- The DNS servers the running service checks custom domains with, written by each instance at start-up
-- (the last one started wins): `petstore domains verify` asks these, never the shell's own resolvers.
CREATE TABLE domain_resolvers (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  servers TEXT NOT NULL,
  recorded_at BIGINT NOT NULL
);
