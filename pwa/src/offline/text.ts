/** Every string of the offline verdict, in one table (translate in text.es/fr/ar.ts). */
import { formatNumber } from "../i18n/format";
import { localized } from "../i18n/runtime";
import type { SizeFacts } from "./model";

/** A size in the UI locale's number format ("15.6 MB", "15,6 Mo"); the worker keeps model.ts's plain formatBytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} B`;
  const unit = bytes < 1024 * 1024 ? "kilobyte" : "megabyte";
  const value = unit === "kilobyte" ? bytes / 1024 : bytes / (1024 * 1024);
  const digits = unit === "kilobyte" ? 0 : 1;
  return formatNumber(value, { style: "unit", unit, minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export const OFFLINE_EN = {
  heading: "Offline verdicts",
  intro: "Download this round's model to get a provisional verdict while you are offline. The server's verdict stays the final one.",
  prepare: "Prepare for offline",
  preparing: "Downloading the model…",
  ready: "Ready offline",
  remove: "Remove offline model",
  removed: "The offline model was removed from this device.",
  unavailable: "This round's model cannot run offline.",
  needsConnection: "Connect to download the model.",
  failed: "The model could not be downloaded. Try again when the connection is better.",
  provisionalLabel: "Provisional",
  provisionalTitle: "Provisional verdict (offline)",
  working: "Asking the offline model…",
  guessFailed: "The offline model could not give a guess.",
  offlineGuess: "the offline model's guess; the server's verdict comes when this example syncs",
  outdated: "A newer model is available for this round. Download it to keep offline guesses up to date.",
  update: "Download the newer model",
  serverAgreed: "The server's verdict agrees with the offline guess.",
  progress: (done: number, total: number) => `${formatBytes(done)} of ${formatBytes(total)}`,
  download: (total: number, modelBytes: number, runtimeBytes: number) =>
    `Download: ${formatBytes(total)} (model ${formatBytes(modelBytes)} + offline runtime ${formatBytes(runtimeBytes)})`,
  downloadModel: (modelBytes: number) => `Download: ${formatBytes(modelBytes)} for the model, plus the offline runtime`,
  readyStored: (bytes: number) => `Ready offline. Stored on this device: ${formatBytes(bytes)}`,
  wouldSay: (label: string) => `the model would probably say “${label}”`,
  serverDiffered: (guess: string, server: string) =>
    `The server's model says “${server}”; the offline guess was “${guess}”. The server's verdict is the one that counts.`,
} as const;

export const TEXT = localized("offline", OFFLINE_EN);
/** The download size, the same figure before and after preparing (pwa/src/offline/model.ts sizeFacts). */
export const downloadSize = (facts: SizeFacts) =>
  facts.runtime === null ? TEXT.downloadModel(facts.model) : TEXT.download(facts.total, facts.model, facts.runtime);
export const progress = (done: number, total: number) => TEXT.progress(done, total);
export const readyStored = (bytes: number) => TEXT.readyStored(bytes);
export const wouldSay = (label: string) => TEXT.wouldSay(label);
export const serverDiffered = (guess: string, server: string) => TEXT.serverDiffered(guess, server);
