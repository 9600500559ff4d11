DROP TABLE request_usage;
