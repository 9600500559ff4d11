DROP TABLE maintenance_leases;
