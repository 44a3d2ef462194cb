/**
 * When a task's instructions are shown before the form: before a worker's first example of the task, and again
 * whenever the instructions change (the acknowledgement is kept per user, task and version of the text).
 */

/** Where acknowledgements are kept (localStorage in the browser; a Map-backed stand-in in tests). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** A short, stable fingerprint of the text (FNV-1a, 32 bits): a new text asks to be read again. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export function ackKey(username: string, taskCode: string): string {
  return `dynabench:instructions:${username}:${taskCode}`;
}

/** Whether to show the instructions before the form (there are some, and this version was not read yet). */
export function mustRead(store: KeyValue | null, username: string, taskCode: string, html: string | undefined): boolean {
  if (!html?.trim()) return false;
  try {
    return store?.getItem(ackKey(username, taskCode)) !== fingerprint(html);
  } catch {
    return true; // storage refused (private mode): show them, every time
  }
}

export function acknowledge(store: KeyValue | null, username: string, taskCode: string, html: string): void {
  try {
    store?.setItem(ackKey(username, taskCode), fingerprint(html));
  } catch {
    // not kept: they show again next time
  }
}

export function browserStore(): KeyValue | null {
  try {
    return typeof localStorage !== "undefined" ? localStorage : null;
  } catch {
    return null;
  }
}
