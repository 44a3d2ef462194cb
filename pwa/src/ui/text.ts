/**
 * Every string of the app shell (header, bottom tab bar, menus, page titles, sync status, lazy-page loading,
 * page-not-found), in one table (translate in text.es/fr/ar.ts).
 */
import { formatNumber, plural } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const SHELL_EN = {
  appName: "Dynabench",
  skip: "Skip to content",
  mainNav: "Main",
  nav: {
    tasks: "Tasks",
    validate: "Validate",
    examples: "My examples",
    outbox: "Outbox",
    models: "Models",
    leaderboard: "Leaderboard",
    owner: "Own tasks",
    admin: "Admin",
  },
  more: "More",
  moreTitle: "More pages",
  account: (username: string) => `Account: ${username}`,
  yourAccount: "Your account",
  logOut: "Log out",
  logIn: "Log in",
  notFoundTitle: "Not found",
  pageTitle: (title: string) => `${title} · Dynabench`,
  notFound: "Page not found",
  toTasks: "Go to the tasks",
  // Page titles (routes.tsx), by route
  titles: {
    tasks: "Tasks", annotate: "Annotate", validate: "Validate", examples: "My examples", outbox: "Outbox", models: "Models",
    model: "Model", leaderboards: "Leaderboards", leaderboard: "Leaderboard", battleLeaderboard: "Battle leaderboard", owner: "Your tasks", newTask: "Create a task",
    ownerTask: "Task owner", campaigns: "Campaigns", campaign: "Campaign", browse: "Browse examples", flags: "Flag queue",
    webhooks: "Webhooks", settings: "Task settings", training: "Retraining", inbox: "Notifications", adminUsers: "Users · Admin",
    adminApprovals: "Task approvals · Admin", adminModels: "Models · Admin", adminAudit: "Audit log · Admin", join: "Join",
    account: "Your account", forgot: "Reset your password", reset: "Choose a new password",
    verify: "Confirm your email address", login: "Log in",
  },
  // The header's sync status (outbox/SyncStatus.tsx)
  online: "Online",
  offline: "Offline",
  /** After the count (a separate element the tests read): the words for n items. */
  waitingToSync: (n: number) => plural(n, { one: "waiting to sync", other: "waiting to sync" }),
  failedCount: (n: number) => `· ${formatNumber(n)} failed`,
  sending: "· sending…",
  logInToSend: "· log in to send",
  // The task list (tasks/TaskListPage.tsx, ui/TaskPicker.tsx) and a task's lifecycle badge (tasks/status.ts)
  tasksLead: "Pick a task, read the context, and write an example the model gets wrong.",
  loadingTasks: "Loading tasks…",
  savedList: (error: string) => `Showing the saved list: ${error}`,
  noTasks: "No tasks are open yet.",
  noRoundOpen: "No round is open.",
  statRound: "Round",
  statExamples: "Examples",
  merTitle: "Model error rate",
  vmerTitle: "Validated model error rate",
  reviewNote: (note: string) => `“${note}”`,
  taskStatus: {
    PROPOSED: { badge: "Proposal", hint: "Awaiting an admin's approval: only its owners and admins see it." },
    REJECTED: { badge: "Rejected", hint: "An admin rejected this proposal: only its owners and admins see it." },
    HIDDEN: { badge: "Hidden", hint: "Not listed for others: only its owners and admins see it." },
    ARCHIVED: { badge: "Archived", hint: "Read-only: its data and exports stay, no new examples or votes." },
  },
  // A page in its own chunk (lib/lazy.tsx)
  pageLoading: "Loading…",
  pageFailed: "This page could not be loaded. Check your connection and reload.",
  reload: "Reload",
  footer: "Dynabench — dynamic adversarial data collection. Your drafts and unsent examples stay on this device until they are delivered.",
} as const;

export type TitleKey = keyof typeof SHELL_EN.titles;

export const SHELL_TEXT = localized("shell", SHELL_EN);
