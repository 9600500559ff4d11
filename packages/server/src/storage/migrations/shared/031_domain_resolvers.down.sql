DROP TABLE domain_resolvers;
