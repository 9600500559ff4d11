DROP TABLE request_log;
DROP SEQUENCE request_log_id;
