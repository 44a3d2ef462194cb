/**
 * The chat's composer: the message box with its character count and the messages left, the reason sending is blocked,
 * Stop while the model writes and Send (Ctrl+Enter, ⌘+Enter on a Mac; Enter alone is a new line).
 */
import { CHAT_TEXT as T } from "./text";

export const COMPOSER_ID = "chat-message";

export function Composer(props: {
  message: string;
  maxLength: number;
  left: number;
  /** Instead of "n messages left" (a battle's one prompt: every model answers it). */
  leftText?: string;
  error: string | null;
  blockHint: string;
  canSend: boolean;
  hasContext: boolean;
  streaming: boolean;
  stopping: boolean;
  sending: boolean;
  onInput: (text: string) => void;
  onSend: () => void;
  onStop: () => void;
}) {
  const { message, maxLength, error } = props;
  const used = [...message].length;
  return (
    <form
      class="composer"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSend();
      }}
    >
      <label for={COMPOSER_ID}>{T.composerLabel}</label>
      <textarea
        id={COMPOSER_ID}
        dir="auto"
        rows={3}
        value={message}
        disabled={!props.hasContext}
        aria-invalid={error || used > maxLength ? "true" : undefined}
        aria-describedby={["chat-count", "chat-left", error ? "chat-message-error" : "", "chat-shortcut"].filter(Boolean).join(" ")}
        onInput={(event) => props.onInput((event.target as HTMLTextAreaElement).value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !event.isComposing) {
            event.preventDefault();
            props.onSend();
          }
        }}
      />
      <div class="composer-meta">
        <span id="chat-count" class={used > maxLength ? "error" : "hint"} data-testid="chat-count">
          {T.charCount(used, maxLength)}
        </span>
        <span id="chat-left" class="hint" data-testid="messages-left">{props.leftText ?? T.messagesLeft(props.left)}</span>
      </div>
      {error && <p class="field-error" id="chat-message-error">{error}</p>}
      <div class="actions composer-actions">
        {props.streaming && (
          <button type="button" class="danger" aria-label={T.stopName} onClick={props.onStop}
            aria-disabled={props.stopping ? "true" : undefined}>
            {props.stopping ? T.stopping : T.stop}
          </button>
        )}
        <button type="submit" class="primary" disabled={!props.canSend} aria-disabled={props.sending ? "true" : undefined}>
          {props.sending ? T.sending : T.send}
        </button>
      </div>
      <p class="hint" id="chat-shortcut">
        {props.blockHint && <span class="composer-block">{props.blockHint} </span>}
        <span class="shortcut">{T.shortcut}</span>
      </p>
    </form>
  );
}
