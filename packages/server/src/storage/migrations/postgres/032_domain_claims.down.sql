-- Back to one row per name: the served claim, else the oldest.
DROP INDEX custom_domains_one_served;
DELETE FROM custom_domains d
WHERE EXISTS (SELECT 1 FROM custom_domains o WHERE o.hostname = d.hostname AND o.project_id <> d.project_id
  AND ((o.state = 'verified')::int > (d.state = 'verified')::int
       OR ((o.state = 'verified') = (d.state = 'verified') AND o.created_at < d.created_at)));
ALTER TABLE custom_domains DROP CONSTRAINT custom_domains_pkey;
ALTER TABLE custom_domains ADD PRIMARY KEY (hostname);
ALTER TABLE custom_domains DROP COLUMN failed_at;
ALTER TABLE custom_domains DROP COLUMN proof_txt;
