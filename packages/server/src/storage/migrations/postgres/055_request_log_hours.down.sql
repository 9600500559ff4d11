DROP TRIGGER request_log_note_hours ON request_log;
DROP FUNCTION request_log_note_hours();
DROP TABLE request_log_hours;
