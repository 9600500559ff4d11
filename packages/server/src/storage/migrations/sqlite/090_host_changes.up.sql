-- The change feed of what decides a request's host: every write of a project or of a custom domain
-- (state, primary, the row itself) appends a row here in the same transaction, whichever door wrote it
-- (dashboard, command line, background checks), by the triggers below. Each instance reads only the
-- rows after the last sequence number it has seen and drops the matching entries of its host cache.
-- AUTOINCREMENT: a sequence number is never reused, even once every older row is pruned.
CREATE TABLE host_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id TEXT NULL,
  slug TEXT NULL,
  hostname TEXT NULL,
  at INTEGER NOT NULL DEFAULT (CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
);
CREATE INDEX host_changes_at ON host_changes (at);

CREATE TRIGGER projects_host_change_insert AFTER INSERT ON projects BEGIN
  INSERT INTO host_changes (project_id, slug) VALUES (NEW.id, NEW.slug);
END;
CREATE TRIGGER projects_host_change_update AFTER UPDATE ON projects BEGIN
  INSERT INTO host_changes (project_id, slug) VALUES (NEW.id, NEW.slug);
  INSERT INTO host_changes (project_id, slug) SELECT OLD.id, OLD.slug WHERE OLD.slug <> NEW.slug;
END;
CREATE TRIGGER projects_host_change_delete AFTER DELETE ON projects BEGIN
  INSERT INTO host_changes (project_id, slug) VALUES (OLD.id, OLD.slug);
END;

CREATE TRIGGER custom_domains_host_change_insert AFTER INSERT ON custom_domains BEGIN
  INSERT INTO host_changes (project_id, hostname) VALUES (NEW.project_id, NEW.hostname);
END;
-- A re-check that changes nothing that routes (its next check, the records it saw) is no change.
CREATE TRIGGER custom_domains_host_change_update AFTER UPDATE ON custom_domains
WHEN OLD.state IS NOT NEW.state OR OLD.is_primary IS NOT NEW.is_primary
  OR OLD.hostname IS NOT NEW.hostname OR OLD.project_id IS NOT NEW.project_id BEGIN
  INSERT INTO host_changes (project_id, hostname) VALUES (NEW.project_id, NEW.hostname);
  INSERT INTO host_changes (project_id, hostname) SELECT OLD.project_id, OLD.hostname
    WHERE OLD.hostname IS NOT NEW.hostname OR OLD.project_id IS NOT NEW.project_id;
END;
CREATE TRIGGER custom_domains_host_change_delete AFTER DELETE ON custom_domains BEGIN
  INSERT INTO host_changes (project_id, hostname) VALUES (OLD.project_id, OLD.hostname);
END;
