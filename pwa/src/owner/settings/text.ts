/** Every string of the task settings page, in one table (translate in text.es/fr/ar.ts). */
import { formatDateTime, formatNumber, plural } from "../../i18n/format";
import { localized } from "../../i18n/runtime";
import type { TaskStatus, Visibility } from "./documents";

const when = (iso: string) => formatDateTime(iso);

export const SETTINGS_EN = {
  title: (task: string) => `Settings of ${task}`,
  titleLoading: "Task settings",
  crumb: "Task owner page",
  lead: "Edit what workers read, the annotation form (each change is a new config version), the owners and who sees the task.",
  loading: "Loading the task…",
  missing: (code: string) => `There is no task “${code}”, or you cannot see it.`,
  notOwner: "You do not own this task: the server will refuse changes.",
  statusLabel: "Status:",
  statuses: {
    PROPOSED: "Proposal, waiting for an admin's approval. Only its owners and admins see it.",
    REJECTED: "Rejected by an admin. Editing the task proposes it again.",
    PUBLIC: "Public: listed for everyone.",
    HIDDEN: "Hidden: not listed; only its owners and admins reach it.",
    ARCHIVED: "Archived: read-only. Its data and exports stay; make it public or hidden again to change it.",
  } as Record<TaskStatus, string>,
  reviewNote: (note: string) => `The admin's note: “${note}”`,
  fixErrors: (n: number) => plural(n, { one: "Fix the error shown below.", other: "Fix the # errors shown below." }),
  offline: "You are offline: settings need a connection.",

  // Details
  detailsTitle: "Details",
  name: "Name",
  description: "Description",
  instructions: "Instructions for workers (markdown)",
  instructionsHint: "Shown before a worker's first example, and again after they change.",
  saveDetails: "Save details",
  saving: "Saving…",
  detailsSaved: "Details saved.",
  instructionsShown: "The instructions as workers see them",
  instructionsNone: "No instructions yet.",

  // Config
  configTitle: "Annotation form (config)",
  configLead: (version: number) => `Version ${version} is the current config: new rounds open with it.`,
  roundKeeps: (round: number, version: number) =>
    `The open round ${round} keeps version ${version}: additive changes apply from the next round on.`,
  editJson: "Edit as JSON",
  backToForm: "Back to the form",
  jsonLabel: "Config (JSON)",
  jsonHint: "The whole config document (docs/task-config.md).",
  jsonOnly: "The form cannot show every part of this config: edit it as JSON.",
  jsonCannotShow: "The form cannot show this config without losing a part of it: keep editing it as JSON.",
  jsonError: (line: number, column: number) => `Not valid JSON (line ${line}, column ${column}).`,
  saveVersion: (version: number) => `Save as version ${version}`,
  unchanged: "Nothing changed: no new version.",
  saved: (version: number) => `Saved as version ${version}.`,
  savedRoundKeeps: (version: number, round: number, kept: number) =>
    `Saved as version ${version}. The open round ${round} keeps version ${kept}.`,
  refused: (n: number) =>
    plural(n, {
      one: "Not saved: a change would break the open round or the config is not valid.",
      other: "Not saved: # changes would break the open round or the config is not valid.",
    }),
  versionsTitle: "Config versions",
  versionsCaption: "Config versions, newest first",
  colVersion: "Version",
  colDate: "Saved",
  colRounds: "Rounds using it",
  date: when,
  noRounds: "None yet",
  currentMark: "(current)",
  roundList: (numbers: number[]) => numbers.map((n) => formatNumber(n)).join(", "),

  // Owners
  ownersTitle: "Owners",
  ownersLead: "Owners edit the task, open rounds and see its data.",
  you: "(you)",
  remove: (user: string) => `Remove ${user}`,
  lastOwner: "A task always keeps one owner: add another owner before removing this one.",
  confirmRemove: (user: string) => `Confirm removing ${user}`,
  removeExplain: (user: string, self: boolean) =>
    self
      ? "You will no longer be an owner: the task's settings and owner pages will refuse you."
      : `${user} will no longer be an owner of this task.`,
  yesRemove: (user: string) => `Yes, remove ${user}`,
  cancel: "Cancel",
  removed: (user: string) => `${user} is no longer an owner.`,
  addLabel: "Add an owner (username)",
  addHint: "They become an owner at once, with the same rights as you.",
  add: "Add owner",
  added: (user: string) => `${user} is now an owner.`,
  usernameMissing: "Give a username.",

  // Visibility
  visibilityTitle: "Who sees the task",
  visibilityProposal: "An admin reviews a proposal first: once approved, you can hide or archive it here.",
  actions: { PUBLIC: "Make public again", HIDDEN: "Hide the task", ARCHIVED: "Archive the task" } as Record<Visibility, string>,
  explain: {
    PUBLIC: "Everyone sees the task in the task list again and can write and validate examples in its open round.",
    HIDDEN: "The task leaves the task list: only its owners and admins reach it. Nothing is deleted; make it public again at any time.",
    ARCHIVED:
      "The task becomes read-only: its open round closes, and no new rounds, examples or votes are taken. Its data, leaderboard and exports stay.",
  } as Record<Visibility, string>,
  confirmVisibility: {
    PUBLIC: "Confirm making the task public",
    HIDDEN: "Confirm hiding the task",
    ARCHIVED: "Confirm archiving the task",
  } as Record<Visibility, string>,
  yes: { PUBLIC: "Yes, make it public", HIDDEN: "Yes, hide it", ARCHIVED: "Yes, archive it" } as Record<Visibility, string>,
  visibilityDone: { PUBLIC: "The task is public.", HIDDEN: "The task is hidden.", ARCHIVED: "The task is archived." } as Record<
    Visibility,
    string
  >,
} as const;

export const SETTINGS_TEXT = localized("settings", SETTINGS_EN);
