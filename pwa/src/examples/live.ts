/** Merging a pushed example (`myExampleUpdates`) into the list shown on My examples (unit-tested in live.test.ts). */
import type { Example } from "../api/types";

/** The list with the pushed copy merged in (its round kept), or null when the list does not hold that example. */
export function mergeExampleUpdate<T extends Example>(list: T[] | null, pushed: Example): T[] | null {
  if (!list || !list.some((example) => example.id === pushed.id)) return null;
  return list.map((example) => (example.id === pushed.id ? { ...example, ...pushed, round: example.round } : example));
}

/** Whether an example the list does not hold belongs on its loaded part (newer than the oldest shown): then the
 * first page is read again; an older one is on a page not loaded yet (reading page one would drop loaded pages). */
export function belongsOnLoadedPages(list: Example[] | null, pushed: Example): boolean {
  if (!list || list.length === 0) return true;
  return list.some((example) => example.createdAt <= pushed.createdAt);
}
