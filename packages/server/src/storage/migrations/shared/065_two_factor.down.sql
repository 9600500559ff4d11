DROP TABLE project_two_factor;
DROP TABLE two_factor_challenges;
DROP TABLE recovery_codes;
DROP TABLE account_two_factor;
