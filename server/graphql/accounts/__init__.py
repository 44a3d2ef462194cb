"""GraphQL of accounts and API tokens: types, loaders, mutations (mirrors server/accounts/)."""
