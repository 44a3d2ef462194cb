/**
 * After the verdict: the task's conditional input fields (`show_when` "fooled" or "not_fooled"), asked about
 * the stored example and sent with the follow-up mutation. One client UUID per example makes a re-send
 * after a lost reply harmless. Shown only when the task has fields for the verdict.
 */
import { useMemo, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import { ANSWER_FOLLOW_UP } from "../api/documents";
import { FormFields, focusField } from "../forms/FormFields";
import { fieldsAfterVerdict, type FieldSpec } from "../forms/specs";
import { FORM_TEXT } from "../forms/text";
import { apiValues, errorsFromServer, firstInvalid, validateValues, type FormErrors, type FormValues } from "../forms/values";
import { newClientId } from "../lib/uuid";
import { fieldErrors } from "../api/types";

const PREFIX = "followup-";

interface Props {
  exampleId: string;
  fooled: boolean;
  fields: FieldSpec[]; // the task's input fields (all of them; the verdict's are picked here)
  contexts: Record<string, string>;
  contextTitles: Record<string, string>;
  online: boolean;
}

export function FollowUp({ exampleId, fooled, fields, contexts, contextTitles, online }: Props) {
  const shown = useMemo(() => fieldsAfterVerdict(fields, fooled), [fields, fooled]);
  const clientId = useMemo(() => newClientId(), [exampleId]);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<FormErrors>({});
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  if (!shown.length) return null;

  async function submit() {
    const problems = validateValues(shown, values, contexts);
    setErrors(problems);
    const first = firstInvalid(shown, problems);
    if (first) {
      setStatus(FORM_TEXT.followUpFix);
      focusField(first, PREFIX);
      return;
    }
    setBusy(true);
    setStatus(FORM_TEXT.followUpSending);
    try {
      const { answerFollowUp: result } = await request(ANSWER_FOLLOW_UP, {
        input: { exampleId, clientId, fields: apiValues(shown, values, contexts) },
      });
      if (result.__typename === "FollowUpAnswered") {
        setSent(true);
        setStatus(FORM_TEXT.followUpSent);
      } else {
        const byField = errorsFromServer(shown, fieldErrors(result));
        setErrors(byField);
        setStatus(result.message);
        const invalid = firstInvalid(shown, byField);
        if (invalid) focusField(invalid, PREFIX);
      }
    } catch (error) {
      setStatus(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="follow-up"
      aria-labelledby="follow-up-title"
      aria-describedby="follow-up-lead"
      noValidate
      data-testid="follow-up"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id="follow-up-title">{FORM_TEXT.followUpTitle}</h3>
      <p class="hint" id="follow-up-lead">{fooled ? FORM_TEXT.followUpLeadFooled : FORM_TEXT.followUpLeadNotFooled}</p>
      <FormFields
        fields={shown}
        values={values}
        errors={errors}
        contexts={contexts}
        contextTitles={contextTitles}
        disabled={sent}
        idPrefix={PREFIX}
        onChange={(name, value) => {
          setValues((v) => ({ ...v, [name]: value }));
          setErrors(({ [name]: _fixed, ...rest }) => rest);
        }}
      />
      <div class="actions">
        <button type="submit" disabled={busy || sent || !online}>{FORM_TEXT.followUpSend}</button>
      </div>
      <p role="status" aria-live="polite" class={status || !online ? "status-line" : "visually-hidden"}>
        {!online && !sent ? FORM_TEXT.followUpOffline : status}
      </p>
    </form>
  );
}
