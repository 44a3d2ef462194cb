/** The API client's own messages (no server answer to show), in one table; each locale's catalog has a `network` table. */
import { localized } from "../i18n/runtime";

export const NETWORK_EN = {
  timedOut: "The server did not answer in time.",
  unreachable: "You are offline or the server is unreachable.",
  unavailable: (status: number) => `The server is unavailable (HTTP ${status}).`,
  uploadCancelled: "The upload was cancelled.",
  uploadTooLong: "The upload took too long.",
  fileTooLarge: "The file is too large for the server.",
  cutOff: (status: number) => `The answer was cut off (HTTP ${status}).`,
  empty: (status: number) => `Empty answer (HTTP ${status}).`,
} as const;

export const NETWORK_TEXT = localized("network", NETWORK_EN);
