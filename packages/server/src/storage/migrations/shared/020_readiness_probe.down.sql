DROP TABLE readiness_probe;
