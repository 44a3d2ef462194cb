/**
 * The file name of a round's export, as the server's download route names it (server/annotation/exports/service.py
 * `export_name`): `<task code>-round-<n>.jsonl`, or `-hf.tar.gz` for the HF dataset; safe in a file name.
 */
export type ExportFileFormat = "JSONL" | "HF_DATASET";

export function exportFileName(taskCode: string, roundNumber: number, format: ExportFileFormat): string {
  const code = taskCode.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "task";
  const stem = `${code}-round-${Math.trunc(roundNumber)}`;
  return format === "JSONL" ? `${stem}.jsonl` : `${stem}-hf.tar.gz`;
}
