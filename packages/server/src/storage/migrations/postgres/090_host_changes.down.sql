DROP TRIGGER host_changes_notify ON host_changes;
DROP TRIGGER custom_domains_host_change ON custom_domains;
DROP TRIGGER projects_host_change ON projects;
DROP FUNCTION host_changes_notify();
DROP FUNCTION host_change_of_domain();
DROP FUNCTION host_change_of_project();
DROP TABLE host_changes;
