-- A project's domains are listed (and paged by cursor) in the order they were added: an index in that
-- order makes each page an index range instead of a sort of all the project's domains.
CREATE INDEX custom_domains_project_created ON custom_domains (project_id, created_at, hostname);
