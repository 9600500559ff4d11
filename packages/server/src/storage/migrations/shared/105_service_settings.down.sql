ALTER TABLE domain_resolvers DROP COLUMN settings;
