"""GraphQL of writing and validating examples, exports: types, loaders, mutations (mirrors server/annotation/)."""
