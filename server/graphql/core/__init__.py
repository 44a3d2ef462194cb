"""GraphQL plumbing every domain shares: context, errors and the mutation wrapper, relay ids, authorization guard, HTTP view."""
