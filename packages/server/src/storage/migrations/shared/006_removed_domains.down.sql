DROP TABLE removed_domains;
