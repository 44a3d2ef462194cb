/** Every string of the models pages (upload, list, one model's status, log and scores), in one table (translate in text.es/fr/ar.ts). */
import { formatNumber } from "../i18n/format";
import { localized } from "../i18n/runtime";

export const MODELS_EN = {
  title: "Models",
  lead: "Upload a Triton model repository for a task. It is checked, deployed, smoke-tested and evaluated on the task’s scoring datasets; follow each step here.",
  status: {
    uploaded: "Uploaded",
    deploying: "Deploying",
    deployed: "Deployed",
    evaluating: "Evaluating",
    evaluated: "Evaluated",
    not_ranked: "Not ranked: no scoring dataset",
    failed: "Failed",
  } as Record<string, string>,
  inTheLoop: (rounds: string) => `In the loop for round ${rounds}`,
  // List
  mineTitle: "Your models",
  loading: "Loading…",
  noModels: "You have not uploaded a model yet.",
  listMeta: (task: string, published: boolean) => (published ? `${task} · published` : task),
  // Upload form
  uploadRegion: "Upload",
  uploadTitle: "Upload a model",
  task: "Task",
  name: "Name",
  archive: "Model repository archive",
  archiveHint: "A tar.gz or zip of one Triton model directory (config.pbtxt and a version folder).",
  description: "Description (model card)",
  license: "License",
  anonymous: "Anonymous on the leaderboard",
  upload: "Upload",
  uploading: "Uploading…",
  chooseArchive: "Choose the archive of your model repository (tar.gz or zip).",
  giveName: "Give the model a name.",
  // Progress
  progressLabel: "Upload progress",
  progress: (percent: number, sent: string, total: string) => `${formatNumber(percent / 100, { style: "percent" })} · ${sent} of ${total}`,
  progressUnknown: (sent: string) => `${sent} sent`,
  checking: "Sent. The server is checking the archive…",
  cancel: "Cancel upload",
  cancelled: "Upload cancelled. Nothing was stored.",
  // One model
  crumbsModels: "Models",
  modelFallbackTitle: "Model",
  statusTitle: "Status",
  logTitle: "Status log",
  logEmpty: "Nothing yet.",
  scoresTitle: "Scores",
  scoresEmpty: "No scores yet: they appear once the model is evaluated on the task’s scoring datasets.",
  scoresCaption: "Scores per scoring dataset",
  columns: { dataset: "Dataset", perf: "Performance", throughput: "Throughput", memory: "Memory", robustness: "Robustness", fairness: "Fairness" },
  publishRegion: "Publishing",
  leaderboardTitle: "Leaderboard",
  isPublished: "Published: shown to everyone.",
  notPublished: "Not published: only you see it on the leaderboard.",
  publish: "Publish",
  unpublish: "Unpublish",
  publishedDone: "Published: everyone sees it on the leaderboard.",
  unpublishedDone: "Unpublished.",
  openLeaderboard: "Open the leaderboard",
} as const;

export const MODELS_TEXT = localized("models", MODELS_EN);
