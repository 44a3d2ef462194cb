/**
 * The conversation as a list of message bubbles: the author's on the inline end, the model's on the inline start.
 * Model output is plain text, always (text nodes with `white-space: pre-wrap`; never HTML, never markdown). A reply
 * being written is `aria-busy` and not live: the page's live region says it once, when it is complete. The bubbles
 * (and their styles) are shared with a submitted conversation's transcript (pwa/src/transcript).
 */
import { formatNumber } from "../i18n/format";
import { Bubble, BubbleText } from "../transcript/Bubble";
import { canRetry, judgeFails, type Conversation, type Turn } from "./stream";
import { CHAT_TEXT as T } from "./text";

interface Props {
  conversation: Conversation | null;
  /** judge_model tasks: the score at or above which a reply means the model failed. */
  threshold: number | null;
  /** Scores the submitted example stored, by turn position (replies scored when it was submitted). */
  storedScores: (number | null)[];
  retrying: boolean;
  online: boolean;
  onRetry: (turn: Turn) => void;
}

export function Transcript({ conversation, threshold, storedScores, retrying, online, onRetry }: Props) {
  const turns = conversation?.turns ?? [];
  return (
    <>
      <h2 id="chat-title" class="visually-hidden">{T.transcriptLabel}</h2>
      {turns.length === 0 && <p class="hint transcript-empty">{T.transcriptEmpty}</p>}
      <ol class="transcript" aria-labelledby="chat-title" data-testid="transcript">
        {turns.map((turn, i) => (
          <Exchange
            key={turn.id}
            turn={turn}
            score={turn.judgeScore ?? storedScores[i] ?? null}
            threshold={threshold}
            retry={canRetry(conversation, turn)}
            retrying={retrying}
            online={online}
            onRetry={() => onRetry(turn)}
          />
        ))}
      </ol>
    </>
  );
}

function Exchange({ turn, score, threshold, retry, retrying, online, onRetry }: {
  turn: Turn;
  score: number | null;
  threshold: number | null;
  retry: boolean;
  retrying: boolean;
  online: boolean;
  onRetry: () => void;
}) {
  const writing = turn.status === "GENERATING";
  const errorId = `reply-note-${turn.id}`;
  return (
    <>
      <Bubble from="author" who={T.you} testId="author-message">
        <BubbleText text={turn.message} />
      </Bubble>
      <Bubble from="model" who={T.model} testId="model-reply" status={turn.status} busy={writing}>
        {(turn.reply || !writing) && <BubbleText text={turn.reply || (writing ? "" : T.emptyReply)} testId="reply-text" />}
        {writing && <p class="hint writing">{T.writing}</p>}
        {turn.status === "STOPPED" && <p class="hint reply-note" id={errorId}>{T.stoppedNote}</p>}
        {turn.status === "FAILED" && (
          <p class="error reply-note" id={errorId} dir="auto">{turn.error ? T.failedNote(turn.error) : T.failedNoReason}</p>
        )}
        {turn.truncated && <p class="hint reply-note">{T.truncatedNote}</p>}
        {threshold !== null && !writing && <JudgeLine score={score} threshold={threshold} />}
        {turn.attempts.length > 0 && (
          <details class="disclosure attempts-earlier">
            <summary>{T.earlierAttempts(turn.attempts.length)}</summary>
            <ol class="earlier-list">
              {turn.attempts.map((attempt, i) => (
                <li key={i}>
                  <p class="hint">{T.earlierAttempt(i + 1)}</p>
                  <BubbleText text={attempt.reply || T.emptyReply} />
                </li>
              ))}
            </ol>
          </details>
        )}
        {retry && (
          <div class="actions">
            <button type="button" onClick={onRetry} disabled={retrying || !online} aria-describedby={errorId}>
              {retrying ? T.retrying : T.retry}
            </button>
          </div>
        )}
      </Bubble>
    </>
  );
}

function JudgeLine({ score, threshold }: { score: number | null; threshold: number }) {
  if (score === null) return <p class="hint judge-line">{T.judgeNone}</p>;
  const fails = judgeFails(score, threshold);
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return (
    <p class="judge-line" data-testid="judge-score" data-fails={fails ? "true" : "false"}>
      {T.judgeScore(formatNumber(score, digits), formatNumber(threshold, digits))}{" "}
      <strong class={fails ? "judge-fails" : "judge-holds"}>{fails ? T.judgeFailed : T.judgePassed}</strong>
    </p>
  );
}
