/** The offline feature's one GraphQL document (checked against schema.graphql in documents.test.ts). */
import type { Document } from "../api/documents";
import type { OfflineModel } from "./model";

export const ROUND_OFFLINE_MODEL = `query RoundOfflineModel($id: ID!) { node(id: $id) { ... on Round { id
  offlineModel { name version labels inputs inputNames maxLength files { name url sha256 bytes } } } } }` as Document<
  { node: { id: string; offlineModel: OfflineModel | null } | null },
  { id: string }
>;
