DROP INDEX api_keys_created_order;
