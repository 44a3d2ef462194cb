/** The owner pages' result line (a polite live region) and the text of a typed API error. */
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
