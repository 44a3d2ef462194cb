/**
 * The app's sections and who sees which: the desktop header lists them all; on a phone the bottom tab bar shows the
 * few a person uses most (by role) and the rest sit under "More". Pure: app.tsx and TabBar.tsx render it.
 */
export type NavKey = "tasks" | "validate" | "examples" | "outbox" | "models" | "leaderboard" | "owner" | "admin";

export interface NavItem {
  key: NavKey;
  path: string; // where the link goes
  prefixes: string[]; // paths that belong to this section (beyond `path` itself)
  adminOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { key: "tasks", path: "/", prefixes: ["/tasks/"] },
  { key: "validate", path: "/validate", prefixes: ["/validate/"] },
  { key: "examples", path: "/examples", prefixes: [] },
  { key: "outbox", path: "/outbox", prefixes: [] },
  { key: "models", path: "/models", prefixes: ["/models/"] },
  { key: "leaderboard", path: "/leaderboard", prefixes: ["/leaderboard/"] },
  { key: "owner", path: "/owner", prefixes: ["/owner/", "/new-task"] },
  { key: "admin", path: "/admin", prefixes: ["/admin/"], adminOnly: true },
];

export interface Viewer {
  isAdmin: boolean;
  ownsTasks: boolean; // owns at least one task (admins own every task)
}

export interface TabLayout {
  tabs: NavKey[]; // the bottom tab bar, before "More"
  more: NavKey[]; // under "More"
}

const ANNOTATOR_TABS: NavKey[] = ["tasks", "validate", "examples"];

/** Annotators: Tasks, Validate, My examples (+ More). Owners get Own tasks as a tab; admins get Admin. */
export function tabLayout(viewer: Viewer): TabLayout {
  const extra: NavKey[] = viewer.isAdmin ? ["admin"] : viewer.ownsTasks ? ["owner"] : [];
  const tabs = [...ANNOTATOR_TABS, ...extra];
  const more = visibleItems(viewer)
    .map((item) => item.key)
    .filter((key) => !tabs.includes(key));
  return { tabs, more };
}

/** Every section this person may see (the desktop header). */
export function visibleItems(viewer: Viewer): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.adminOnly || viewer.isAdmin);
}

export function navItem(key: NavKey): NavItem {
  return NAV_ITEMS.find((item) => item.key === key)!;
}

/** The section a path belongs to ("/tasks/nli" → tasks), or null (account, inbox, login...). */
export function sectionOf(path: string): NavKey | null {
  for (const item of NAV_ITEMS) {
    if (path === item.path || item.prefixes.some((prefix) => (prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix))) {
      return item.key;
    }
  }
  return null;
}

/** aria-current for a link to `key` while on `path`: "page" on the section's own page, "true" on one of its pages. */
export function currentFor(key: NavKey, path: string): "page" | "true" | undefined {
  if (sectionOf(path) !== key) return undefined;
  return path === navItem(key).path ? "page" : "true";
}
