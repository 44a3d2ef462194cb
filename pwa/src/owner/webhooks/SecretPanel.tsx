/** A signing secret, shown once (after creation or rotation): a read-only field, a Copy button and a clear note. */
import { useEffect, useRef, useState } from "preact/hooks";
import { WEBHOOK_TEXT as T } from "./text";

export interface Revealed {
  webhookId: string;
  secret: string;
  rotated: boolean;
  previousSecretValidUntil: string | null;
}

export function SecretPanel({ revealed, onDone }: { revealed: Revealed; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const id = `secret-${revealed.webhookId}`;
  useEffect(() => heading.current?.focus(), [revealed.secret]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(revealed.secret);
      setCopied(true);
    } catch {
      field.current?.select();
      setCopied(false);
    }
  }

  return (
    <div class="card" role="group" aria-labelledby={`${id}-title`} data-testid="webhook-secret">
      <h3 id={`${id}-title`} tabIndex={-1} ref={heading}>{T.secretTitle}</h3>
      <p class="note" id={`${id}-note`}>{T.secretOnce}</p>
      <div class="field">
        <label for={id}>{T.secretLabel}</label>
        <input dir="ltr" id={id} ref={field} type="text" readOnly value={revealed.secret} spellcheck={false} autocomplete="off"
          aria-describedby={`${id}-note`} onFocus={(e) => e.currentTarget.select()} />
      </div>
      {revealed.rotated && <p>{revealed.previousSecretValidUntil ? T.previousUntil(revealed.previousSecretValidUntil) : T.previousStopped}</p>}
      <div class="actions">
        <button type="button" class="primary" onClick={() => void copy()}>{T.copy}</button>
        <button type="button" onClick={onDone}>{T.secretDone}</button>
        <span role="status" aria-live="polite" data-testid="copy-status">{copied === null ? "" : copied ? T.copied : T.copyFailed}</span>
      </div>
    </div>
  );
}
