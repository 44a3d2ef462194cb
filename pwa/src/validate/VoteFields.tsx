/**
 * The task's validator fields for the chosen vote (`validator_fields` with show_when "always" or the vote),
 * e.g. the corrected label of an "incorrect" vote; "Send the vote" sends them with it.
 */
import { FormFields } from "../forms/FormFields";
import type { FieldSpec } from "../forms/specs";
import { FORM_TEXT } from "../forms/text";
import type { FormErrors, FormValues } from "../forms/values";

export const VOTE_FIELD_PREFIX = "vote-field-";

interface Props {
  vote: string; // the vote's text
  fields: FieldSpec[];
  values: FormValues;
  errors: FormErrors;
  contexts: Record<string, string>;
  contextTitles: Record<string, string>;
  onChange: (name: string, value: unknown) => void;
  onSend: () => void;
  onCancel: () => void;
}

export function VoteFields({ vote, fields, values, errors, contexts, contextTitles, onChange, onSend, onCancel }: Props) {
  return (
    <form
      class="vote-fields"
      aria-labelledby="vote-fields-title"
      aria-describedby="vote-fields-lead"
      noValidate
      data-testid="vote-fields"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <h3 id="vote-fields-title">{FORM_TEXT.voteFieldsTitle(vote)}</h3>
      <p class="hint" id="vote-fields-lead">{FORM_TEXT.voteFieldsLead}</p>
      <FormFields fields={fields} values={values} errors={errors} contexts={contexts} contextTitles={contextTitles} idPrefix={VOTE_FIELD_PREFIX} onChange={onChange} />
      <div class="actions">
        <button type="submit" class="primary">{FORM_TEXT.voteSend}</button>
        <button type="button" onClick={onCancel}>{FORM_TEXT.voteCancel}</button>
      </div>
    </form>
  );
}
