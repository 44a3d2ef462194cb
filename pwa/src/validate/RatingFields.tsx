/**
 * The rated vote's form (fooling `validator_rating`): the goal, the rating field's name and scale with the threshold
 * from which a rating says the model failed, then the fields (the rating first). It is always shown; the vote bar's
 * "Submit rating" (key 1) and "Flag" (key 3) send it, and so does Enter in it.
 */
import { FormFields } from "../forms/FormFields";
import type { FieldSpec } from "../forms/specs";
import type { FormErrors, FormValues } from "../forms/values";
import { formatNumber } from "../i18n/format";
import type { RatingSettings } from "../chat/config";
import { ratingRange, ratingSays } from "./rating";
import { VOTE_FIELD_PREFIX } from "./VoteFields";
import { VALIDATE_TEXT as T } from "./text";

interface Props {
  goal: string;
  rule: RatingSettings | null;
  /** The rating field first, then the vote's other fields. */
  fields: FieldSpec[];
  /** A display name in the UI locale (the task's translations). */
  fieldName: (spec: FieldSpec) => string;
  values: FormValues;
  errors: FormErrors;
  contexts: Record<string, string>;
  contextTitles: Record<string, string>;
  onChange: (name: string, value: unknown) => void;
  onSend: () => void;
}

export const RATING_SCALE_ID = "rating-scale";

export function RatingFields({ goal, rule, fields, fieldName, values, errors, contexts, contextTitles, onChange, onSend }: Props) {
  const spec = rule ? fields.find((f) => f.name === rule.field) : undefined;
  const n = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  let scale = "";
  if (spec && rule) {
    const { low, high } = ratingRange(spec);
    scale = low !== null && high !== null
      ? T.ratingScale(fieldName(spec), n(low), n(high), n(rule.threshold))
      : T.ratingScaleOpen(fieldName(spec), n(rule.threshold));
  }
  const says = spec && rule ? ratingSays(values[spec.name], rule.threshold) : null;
  const shown = fields.map((f) => ({ ...f, displayName: fieldName(f) }));
  return (
    <form
      class="vote-fields rating-fields"
      aria-labelledby="vote-title"
      aria-describedby={[goal ? "rating-goal" : "", scale ? RATING_SCALE_ID : ""].filter(Boolean).join(" ") || undefined}
      noValidate
      data-testid="rating-fields"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
      onKeyDown={(event) => {
        // Enter sends the rating from any control of the form but a text area (a new line there) or a button.
        const target = event.target as HTMLElement;
        if (event.key !== "Enter" || event.isComposing || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
        if (target.tagName === "TEXTAREA" || target.tagName === "BUTTON") return;
        event.preventDefault();
        onSend();
      }}
    >
      {goal && (
        <p class="rating-goal" id="rating-goal">
          <strong>{T.ratingGoal}</strong> <span dir="auto" data-testid="rating-goal">{goal}</span>
        </p>
      )}
      {scale && <p class="hint" id={RATING_SCALE_ID} data-testid="rating-scale">{scale}</p>}
      <FormFields fields={shown} values={values} errors={errors} contexts={contexts} contextTitles={contextTitles}
        idPrefix={VOTE_FIELD_PREFIX} onChange={onChange} />
      {says && (
        <p class={`rating-says rating-says-${says}`} data-testid="rating-says" data-says={says}>
          {says === "failed" ? T.ratingSaysFailed : T.ratingSaysHeld}
        </p>
      )}
    </form>
  );
}
