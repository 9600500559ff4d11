-- What the running service judges custom domains by (its site domain, API host, CA identity and
-- Enterprise domain allowance), recorded beside its DNS servers at start-up as JSON: the command line
-- applies the service's rules, never its own shell's environment.
ALTER TABLE domain_resolvers ADD COLUMN settings TEXT NULL;
