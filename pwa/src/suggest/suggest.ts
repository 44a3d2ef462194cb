/** Pure helpers of the suggestion panels: what a candidate says about the model, and formatted numbers. */
import type { AssistanceRow, Suggestion } from "./documents";

/** The candidate's text for the field it fills ("" when it fills another). */
export function candidateText(suggestion: Suggestion, field: string): string {
  return String(suggestion.fields[field] ?? "");
}

/** 0.4321 → "43%" (whole percent, as the model's confidence is shown elsewhere). */
export function percent(value: number): string {
  return `${Math.round(Math.max(0, Math.min(1, value)) * 100)}%`;
}

/** The owner table's rows, unassisted first, with zeros when the server sent none for a side. */
export function sides(rows: AssistanceRow[]): [AssistanceRow, AssistanceRow] {
  const empty = (assisted: boolean): AssistanceRow => ({
    assisted, collected: 0, fooled: 0, validatedFooled: 0, foolingRate: null, validatedFoolingRate: null, medianMsToFool: null, edited: 0,
  });
  return [rows.find((r) => !r.assisted) ?? empty(false), rows.find((r) => r.assisted) ?? empty(true)];
}

/** A median time in milliseconds as seconds with one decimal, or null. */
export function seconds(ms: number | null): string | null {
  return ms === null ? null : (Math.round(ms / 100) / 10).toFixed(1);
}
