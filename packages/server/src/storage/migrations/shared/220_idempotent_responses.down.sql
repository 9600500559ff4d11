DROP TABLE idempotent_responses;
