/** A confirmation for an admin action: the question (focused when it opens), an optional reason, Confirm / Cancel. */
import { useEffect, useRef, useState } from "preact/hooks";
import { REASON_MAX, reasonProblem } from "./logic";
import { ADMIN_TEXT as T } from "./text";

export interface ConfirmProps {
  id: string;
  question: string;
  reason?: { label: string; required: boolean };
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

export function Confirm({ id, question, reason, busy, onConfirm, onCancel }: ConfirmProps) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState("");
  const questionRef = useRef<HTMLParagraphElement>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => questionRef.current?.focus(), []);

  function submit(event: Event) {
    event.preventDefault();
    const found = reason ? reasonProblem(text, reason.required) : null;
    if (found) {
      setProblem(found === "missing" ? T.reasonMissing : T.reasonTooLong(REASON_MAX));
      fieldRef.current?.focus();
      return;
    }
    setProblem("");
    onConfirm(text.trim());
  }

  return (
    <form class="confirm" role="group" aria-labelledby={`${id}-question`} onSubmit={submit} noValidate>
      <p id={`${id}-question`} tabIndex={-1} ref={questionRef}><strong>{question}</strong></p>
      {reason && (
        <div class="field">
          <label for={`${id}-reason`}>{reason.label}</label>
          <textarea dir="auto"
            id={`${id}-reason`}
            ref={fieldRef}
            rows={2}
            maxLength={REASON_MAX + 50}
            value={text}
            aria-invalid={problem ? "true" : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          />
          {problem && <p id={`${id}-problem`} role="alert" class="error">{problem}</p>}
        </div>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>{busy ? T.wait : T.confirm}</button>{" "}
        <button type="button" disabled={busy} onClick={onCancel}>{T.cancel}</button>
      </div>
    </form>
  );
}
