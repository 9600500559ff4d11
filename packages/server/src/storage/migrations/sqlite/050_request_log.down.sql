DROP TABLE request_log;
