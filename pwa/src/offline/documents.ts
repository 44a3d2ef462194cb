/** The offline feature's one GraphQL document (checked against schema.graphql in documents.test.ts). */
import type { Document } from "../api/documents";
import type { RoundOfflineModelQuery, RoundOfflineModelQueryVariables } from "../api/generated/types";

export const ROUND_OFFLINE_MODEL = `query RoundOfflineModel($id: ID!) { node(id: $id) { ... on Round { id
  offlineModel { name version labels inputs inputNames maxLength files { name url sha256 bytes } } } } }` as Document<
  RoundOfflineModelQuery,
  RoundOfflineModelQueryVariables
>;
