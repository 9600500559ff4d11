DROP INDEX custom_domains_failed_at;
