-- The change feed of what decides a request's host: every write of a project or of a custom domain
-- (state, primary, the row itself) appends a row here in the same transaction, whichever door wrote it
-- (dashboard, command line, background checks), by the triggers below. Each instance reads only the
-- rows after the last sequence number it has seen and drops the matching entries of its host cache;
-- the NOTIFY (sent at commit, payload: the schema) tells every listening instance to read them now.
-- The functions keep the search_path they were created with, so a write from any session (whatever
-- its own search_path) records its change in this schema.
CREATE TABLE host_changes (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id TEXT NULL,
  slug TEXT NULL,
  hostname TEXT NULL,
  at BIGINT NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT
);
CREATE INDEX host_changes_at ON host_changes (at);

CREATE FUNCTION host_change_of_project() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO host_changes (project_id, slug) VALUES (NEW.id, NEW.slug);
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.slug IS DISTINCT FROM NEW.slug) THEN
    INSERT INTO host_changes (project_id, slug) VALUES (OLD.id, OLD.slug);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER projects_host_change AFTER INSERT OR UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION host_change_of_project();

CREATE FUNCTION host_change_of_domain() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.state IS NOT DISTINCT FROM NEW.state
     AND OLD.is_primary IS NOT DISTINCT FROM NEW.is_primary AND OLD.hostname = NEW.hostname
     AND OLD.project_id = NEW.project_id THEN
    -- A re-check that changes nothing that routes (its next check, the records it saw) is no change.
    RETURN NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO host_changes (project_id, hostname) VALUES (NEW.project_id, NEW.hostname);
  END IF;
  IF TG_OP = 'DELETE' OR OLD.hostname <> NEW.hostname OR OLD.project_id <> NEW.project_id THEN
    INSERT INTO host_changes (project_id, hostname) VALUES (OLD.project_id, OLD.hostname);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER custom_domains_host_change AFTER INSERT OR UPDATE OR DELETE ON custom_domains
  FOR EACH ROW EXECUTE FUNCTION host_change_of_domain();

CREATE FUNCTION host_changes_notify() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM pg_notify('petstore_host_changes', current_schema());
  RETURN NULL;
END
$$;
CREATE TRIGGER host_changes_notify AFTER INSERT ON host_changes
  FOR EACH STATEMENT EXECUTE FUNCTION host_changes_notify();
