/** The inbox's pure logic: merging live arrivals into the list, marking, counting. */
import type { Notification } from "./documents";

/** Newest first (ids are increasing global ids: compare their numbers), each notification once. */
export function merge(list: readonly Notification[], incoming: readonly Notification[]): Notification[] {
  const byId = new Map<string, Notification>();
  for (const n of [...list, ...incoming]) byId.set(n.id, n);
  return [...byId.values()].sort((a, b) => numberOf(b.id) - numberOf(a.id));
}

/** The row number inside a Relay global id ("Notification:12", base64). */
export function numberOf(globalId: string): number {
  try {
    const decoded = atob(globalId);
    return Number(decoded.slice(decoded.indexOf(":") + 1)) || 0;
  } catch {
    return 0;
  }
}

export function markRead(list: readonly Notification[], ids: readonly string[] | "all"): Notification[] {
  const chosen = ids === "all" ? null : new Set(ids);
  return list.map((n) => (chosen === null || chosen.has(n.id) ? { ...n, read: true } : n));
}

/** The newest id seen: the live feed resumes after it (`since`), so nothing is missed between a read and a subscribe. */
export function newest(list: readonly Notification[]): string | null {
  return list.length ? list.reduce((a, b) => (numberOf(b.id) > numberOf(a.id) ? b : a)).id : null;
}
