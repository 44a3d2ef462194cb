"""GraphQL of retraining target models: types, loaders, mutations (mirrors server/training/)."""
