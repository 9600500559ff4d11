DROP TABLE access_token_projects;
DROP TABLE access_tokens;
