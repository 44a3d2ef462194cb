/**
 * The owner pages' result line (a polite live region), the text of a typed API error, and where focus goes once a
 * form's refusal is shown.
 */
import { useEffect, useRef } from "preact/hooks";
import type { ErrorResult } from "../api/types";

export type Message = { text: string; ok: boolean } | null;

export function errorText(result: ErrorResult): string {
  const fields = result.fields?.map((f) => `${f.field}: ${f.message}`).join("; ");
  return fields ? `${result.message} (${fields})` : result.message;
}

export function Status({ message, testId }: { message: Message; testId: string }) {
  return (
    <p role="status" aria-live="polite" class={message ? (message.ok ? "notice-ok" : "error") : ""} data-testid={testId}>
      {message?.text}
    </p>
  );
}

/**
 * Set the returned flag before showing a form's errors or message: once they are shown (`shown` changes), focus moves
 * to the form's first invalid control, or else to its status line.
 */
export function useFocusFirstInvalid(formId: string, statusId: string, shown: unknown[]) {
  const focusFirst = useRef(false);
  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    const first = document.querySelector<HTMLElement>(`#${formId} [aria-invalid='true']`);
    (first ?? document.getElementById(statusId))?.focus();
  }, shown);
  return focusFirst;
}
