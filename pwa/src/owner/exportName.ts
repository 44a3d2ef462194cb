/**
 * The file name of a round's export, as the server's download route names it (server/annotation/exports/service.py
 * `export_file_name`): `<task code>-round-<n>.jsonl`, `-preferences.jsonl` for a battle task's preference pairs, or
 * `-hf.tar.gz` for the HF dataset; safe in a file name.
 */
import type { ExportFormat } from "../api/types";

export function exportFileName(taskCode: string, roundNumber: number, format: ExportFormat): string {
  const code = taskCode.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "task";
  const stem = `${code}-round-${Math.trunc(roundNumber)}`;
  return { JSONL: `${stem}.jsonl`, PREFERENCES: `${stem}-preferences.jsonl`, HF_DATASET: `${stem}-hf.tar.gz` }[format];
}
