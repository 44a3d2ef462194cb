/**
 * Validating a generative task whose fooling metric is `validator_rating`: each vote is a rating (config
 * `generative.rating`: a validator field and a threshold) sent with "submit" or "flag". The PWA sends CORRECT for a
 * submit and FLAGGED for a flag; the server derives the vote's answer from the rating (at least the threshold: the
 * model failed). Pure functions.
 */
import type { ValidationLabel } from "../api/types";
import type { RatingSettings } from "../chat/config";
import { fieldsForVote, type FieldSpec } from "../forms/specs";

export type RatedAction = "submit" | "flag";

/** The label a rated vote is sent with: the rating itself carries the answer. */
export function ratedVoteLabel(action: RatedAction): ValidationLabel {
  return action === "flag" ? "FLAGGED" : "CORRECT";
}

/** Keys of the rated vote bar: 1 submits the rating, 3 flags (2, "incorrect", has no meaning here). */
export const RATED_VOTE_KEYS: Record<string, RatedAction> = { "1": "submit", "3": "flag" };

/** The fields a rated vote asks: the rating field first, then the task's other validator fields for that vote. */
export function ratedFields(specs: FieldSpec[], rule: RatingSettings | null, label: ValidationLabel): FieldSpec[] {
  const fields = fieldsForVote(specs, label);
  const rating = rule ? fields.find((f) => f.name === rule.field) : undefined;
  return rating ? [rating, ...fields.filter((f) => f !== rating)] : fields;
}

/** The fields a vote needs that are not on screen yet (they are shown first, and the vote waits for them). */
export function unseenFields(needed: FieldSpec[], shown: FieldSpec[]): FieldSpec[] {
  const names = new Set(shown.map((f) => f.name));
  return needed.filter((f) => !names.has(f.name));
}

/** The rating field's range: a rating 1..scale, a number its min..max (null ends when the config gives none). */
export function ratingRange(spec: FieldSpec): { low: number | null; high: number | null } {
  return spec.type === "rating" ? { low: 1, high: spec.scale } : { low: spec.min, high: spec.max };
}

/** What a rating says of the model: at least the threshold, it failed; below, it did not; null while unanswered. */
export function ratingSays(value: unknown, threshold: number): "failed" | "held" | null {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(number)) return null;
  return number >= threshold ? "failed" : "held";
}
