/**
 * Study mode across reloads (issue #29): the join chunk (pwa/src/join/study.ts) records the campaign a worker is in;
 * this tiny part of the base bundle sends any other address back to it at start-up and on every navigation, before
 * the join chunk is loaded, as long as the same campaign account is signed in.
 */
import { parse } from "../router";

export const STUDY_KEY = "dynabench.study";

export interface StoredStudy {
  path: string;
  username: string;
}

export function storedStudy(storage: Pick<Storage, "getItem"> = localStorage): StoredStudy | null {
  try {
    const value = JSON.parse(storage.getItem(STUDY_KEY) ?? "null") as Partial<StoredStudy> | null;
    return value && typeof value.path === "string" && typeof value.username === "string" ? (value as StoredStudy) : null;
  } catch {
    return null;
  }
}

/** Where this address must go instead while `username` is in a study, or null (no study, another account, or the
 * address is the campaign's own page). */
export function studyRedirect(study: StoredStudy | null, username: string | undefined, path: string): string | null {
  if (!study || !username || study.username !== username) return null;
  return parse(path).path === parse(study.path).path ? null : study.path;
}
