"""GraphQL of tasks, rounds and contexts: types, loaders, mutations (mirrors server/tasks/)."""
