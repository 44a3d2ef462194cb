/** "My examples" live feed (checked against schema.graphql by validate/documents.test.ts). */
import type { MyExampleUpdatesSubscription, MyExampleUpdatesSubscriptionVariables } from "../api/generated/types";
import type { Document } from "../api/documents";

const doc = <TData, TVariables = Record<string, never>>(source: string) => source as Document<TData, TVariables>;

export type MyExampleChange = "LISTENING" | "JUDGED" | "OUTCOME" | "FLAGGED" | "RETRACTED" | "EXPLAINED";

const EXAMPLE_FIELDS = `id clientId input modelOutput modelName modelVersion fooled verdict status retracted flagged
  flagReason explanation pendingReason createdAt claimedFooled assistance { kind edited }`;

/** LISTENING once live, then each of the viewer's examples again whenever it changes. */
export const MY_EXAMPLE_UPDATES = doc<MyExampleUpdatesSubscription, MyExampleUpdatesSubscriptionVariables>(
  `subscription MyExampleUpdates { myExampleUpdates { change example { ${EXAMPLE_FIELDS} } } }`,
);

export const EXAMPLES_DOCUMENTS = { MY_EXAMPLE_UPDATES };
