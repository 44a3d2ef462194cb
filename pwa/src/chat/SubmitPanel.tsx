/**
 * Submitting a conversation: its attack categories (checkboxes), the task's input fields if it has any, an explanation
 * and, on ask_user tasks, the author's "Did the model fail?" (on judge_model tasks the judge decides: each reply's
 * score is in the transcript; on validator_rating tasks the validators' ratings do). Then the verdict, and a new
 * conversation.
 */
import type { ComponentChildren } from "preact";
import type { FieldError } from "../api/types";
import type { ChatDraft, ChatResult } from "../annotate/drafts";
import { fieldErrors } from "../annotate/ExampleForm";
import { FormFields } from "../forms/FormFields";
import type { FieldSpec } from "../forms/specs";
import { formatNumber } from "../i18n/format";
import { VerdictBadge } from "../ui/Verdict";
import type { GenerativeSettings } from "./config";
import { CHAT_TEXT as T } from "./text";

export const VERDICT_TITLE_ID = "chat-verdict-title";
export const INPUT_PREFIX = "chat-field-";

interface Props {
  settings: GenerativeSettings;
  chat: ChatDraft;
  fields: FieldSpec[]; // the task's always-shown input fields
  values: Record<string, unknown>;
  explanation: string;
  contexts: Record<string, string>;
  categoryName: (category: string) => string;
  errors: FieldError[];
  message: string; // the last refusal or failure, said next to Submit
  ready: boolean; // a reply to submit, nothing being written
  busy: boolean;
  online: boolean;
  onChat: (patch: Partial<ChatDraft>) => void;
  onField: (name: string, value: unknown) => void;
  onExplanation: (text: string) => void;
  onSubmit: () => void;
}

const errorOf = (errors: FieldError[], field: string) => errors.find((e) => e.field === field)?.message;

export function SubmitPanel(props: Props) {
  const { settings, chat, fields, values, explanation, contexts, categoryName, errors, message, ready, busy, online } = props;
  const categoriesError = errorOf(errors, "categories");
  const explanationError = errorOf(errors, "explanation");
  const failedError = errorOf(errors, "modelFailed");
  const threshold = settings.judge ? formatNumber(settings.judge.threshold, { maximumFractionDigits: 2 }) : "";
  return (
    <form
      class="card chat-submit"
      aria-labelledby="chat-submit-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <h2 id="chat-submit-title">{T.submitTitle}</h2>
      {settings.categories.length > 0 && (
        <fieldset class="field" id="chat-categories" tabIndex={-1}
          aria-describedby={["chat-categories-hint", categoriesError ? "chat-categories-error" : ""].filter(Boolean).join(" ")}>
          <legend>{T.categoriesLegend}</legend>
          <p class="hint" id="chat-categories-hint">{T.categoriesHint}</p>
          <div class="choice-row">
            {settings.categories.map((category) => (
              <label class="choice" key={category}>
                <input
                  type="checkbox"
                  name="category"
                  value={category}
                  checked={chat.categories.includes(category)}
                  onChange={(event) => {
                    const on = (event.target as HTMLInputElement).checked;
                    const rest = chat.categories.filter((c) => c !== category);
                    props.onChat({ categories: on ? settings.categories.filter((c) => c === category || rest.includes(c)) : rest });
                  }}
                />
                <span dir="auto">{categoryName(category)}</span>
              </label>
            ))}
          </div>
          {categoriesError && <p class="field-error" id="chat-categories-error">{categoriesError}</p>}
        </fieldset>
      )}
      <FormFields
        fields={fields}
        values={values}
        errors={fieldErrors(fields, errors)}
        contexts={contexts}
        idPrefix={INPUT_PREFIX}
        onChange={props.onField}
      />
      <div class="field">
        <label for="chat-explanation">{T.explanationLabel}</label>
        <textarea
          id="chat-explanation"
          dir="auto"
          rows={2}
          value={explanation}
          aria-invalid={explanationError ? "true" : undefined}
          aria-describedby={explanationError ? "chat-explanation-error" : undefined}
          onInput={(event) => props.onExplanation((event.target as HTMLTextAreaElement).value)}
        />
        {explanationError && <p class="field-error" id="chat-explanation-error">{explanationError}</p>}
      </div>
      {settings.judge ? (
        <p class="hint">{T.judgeHint(threshold)}</p>
      ) : settings.decider === "validators" ? (
        <p class="hint" data-testid="validators-decide">{T.validatorsHint}</p>
      ) : (
        <fieldset class="field" id="chat-failed" tabIndex={-1}
          aria-describedby={["chat-failed-hint", failedError ? "chat-failed-error" : ""].filter(Boolean).join(" ")}>
          <legend>{T.failedLegend}</legend>
          <p class="hint" id="chat-failed-hint">{T.failedHint}</p>
          <div class="choice-row">
            {([true, false] as const).map((answer) => (
              <label class="choice" key={String(answer)}>
                <input
                  type="radio"
                  name="model-failed"
                  checked={chat.modelFailed === answer}
                  onChange={() => props.onChat({ modelFailed: answer })}
                />
                <span>{answer ? T.failedYes : T.failedNo}</span>
              </label>
            ))}
          </div>
          {failedError && <p class="field-error" id="chat-failed-error">{failedError}</p>}
        </fieldset>
      )}
      <div class="actions">
        {/* Not `disabled` while busy: a disabled button drops the keyboard focus to <body>. */}
        <button type="submit" class="primary" disabled={!ready || !online} aria-disabled={busy ? "true" : undefined}
          aria-describedby="chat-submit-hint">
          {busy ? T.submitting : T.submit}
        </button>
      </div>
      <p class="hint" id="chat-submit-hint">{!online ? T.offline : ready ? "" : T.needReply}</p>
      <p role="status" class={message ? "error" : "visually-hidden"} data-testid="chat-submit-status">{message}</p>
    </form>
  );
}

/** The verdict of the submitted conversation, with what to do next (children: the new conversation button). */
export function ChatVerdict({ result, threshold, children }: {
  result: ChatResult;
  threshold: number | null;
  children?: ComponentChildren;
}) {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return (
    <section class="card verdict chat-verdict" aria-labelledby={VERDICT_TITLE_ID} data-state="verdict" data-testid="chat-verdict">
      <h2 id={VERDICT_TITLE_ID} tabIndex={-1}>{T.verdictTitle}</h2>
      <div class="verdict-head" aria-live="polite" aria-atomic="true">
        <VerdictBadge verdict={result.verdict} />
        <p class="verdict-message">{result.message}</p>
      </div>
      {threshold !== null && result.judgeScores.some((s) => s !== null) && (
        <ul class="judge-list">
          {result.judgeScores.map((score, i) =>
            score === null ? null : (
              <li key={i}>
                {T.judgeOfReply(i + 1, formatNumber(score, digits), formatNumber(threshold, digits))}
              </li>
            ),
          )}
        </ul>
      )}
      <p class="hint">{T.submittedNote}</p>
      {children}
    </section>
  );
}
