/**
 * Study mode: a worker who joined through a campaign sees only the campaign. While the campaign's pseudonymous
 * account is signed in, the app's sections (header navigation, phone tab bar, account menu, footer: study.css) are
 * hidden, and any other address leads back to the campaign's page, which holds the work, Finish and the completion.
 * Part of the join chunk: nothing of it reaches the base bundle.
 */
import { session } from "../auth/session";
import { STUDY_KEY } from "../lib/studyGate";
import { currentPath, navigate, parse } from "../router";
import "./study.css";

export interface Study {
  path: string; // "/join/<code>?<the link's parameters>": where the worker is sent back to
  username: string; // the campaign's account: another sign-in in this browser ends the study mode
}

/** Whether an address is inside the study: the campaign's own join page (its parameters may differ). */
export function inStudy(study: Study, path: string): boolean {
  return parse(path).path === parse(study.path).path;
}

let current: Study | null = null;
let stopWatching: (() => void) | null = null;

function guard() {
  if (!current) return;
  if (session.get()?.user.username !== current.username) {
    leaveStudy();
    return;
  }
  if (!inStudy(current, currentPath())) navigate(current.path, { replace: true });
}

/** Enter (or keep) study mode for this campaign page and the signed-in campaign account. */
export function enterStudy(study: Study): void {
  const first = current === null;
  current = study;
  document.documentElement.dataset.study = "on";
  try {
    localStorage.setItem(STUDY_KEY, JSON.stringify(study)); // a reload elsewhere comes back (lib/studyGate.ts)
  } catch {
    // storage full or refused: the study holds until the page is reloaded
  }
  if (first) {
    window.addEventListener("hashchange", guard);
    stopWatching = session.subscribe(() => guard());
  }
}

export function leaveStudy(): void {
  current = null;
  delete document.documentElement.dataset.study;
  try {
    localStorage.removeItem(STUDY_KEY);
  } catch {
    // nothing stored
  }
  window.removeEventListener("hashchange", guard);
  stopWatching?.();
  stopWatching = null;
}
