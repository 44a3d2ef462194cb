"""GraphQL of researchers' models, datasets and the leaderboard: types, loaders, mutations (mirrors server/evaluation/)."""
