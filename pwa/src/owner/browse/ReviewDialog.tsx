/** One example for its owners (exampleReview): the input, status, gold answer, the votes with their voters and the
 * owners' history, in a modal <dialog> (focus stays inside; Escape or "Close" returns to the card's button); a conversation
 * (generative tasks) as its whole transcript. */
import { useEffect, useRef } from "preact/hooks";
import { request } from "../../api/client";
import { useOwnerQuery } from "../useOwnerQuery";
import { EXAMPLE_REVIEW } from "./documents";
import { inputText, voteFieldPairs } from "./filters";
import { LazyExampleTranscript } from "../../transcript/lazy";
import { isTranscriptInput } from "../../transcript/transcript";
import { formatDateTime } from "../../i18n/format";
import { BROWSE_TEXT as T } from "./text";

export function ReviewDialog({ exampleId, onClose }: { exampleId: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { data: review, error } = useOwnerQuery(async () => (await request(EXAMPLE_REVIEW, { exampleId })).exampleReview, [exampleId]);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const node = dialog.current;
    if (node && !node.open) node.showModal();
    return () => {
      if (node?.open) node.close(); // while it is modal, the rest of the page is inert and cannot take focus
      opener?.focus();
    };
  }, []);

  const example = review?.example;
  const { text, label } = example ? inputText(example.input) : { text: "", label: null };
  return (
    <dialog ref={dialog} class="card review-dialog" aria-labelledby="review-title" data-testid="review-dialog"
      onClose={onClose} onCancel={(e) => { e.preventDefault(); onClose(); }}
      style={{ maxWidth: "40rem", width: "calc(100% - 2rem)", maxHeight: "90vh", overflowY: "auto" }}>
      <div class="round-head">
        <h2 id="review-title">{T.reviewTitle}</h2>
        <button type="button" onClick={onClose}>{T.close}</button>
      </div>
      {error && <p role="alert" class="error">{error}</p>}
      {!review ? <p role="status">{T.loading}</p> : (
        <>
          {isTranscriptInput(example!.input) && (
            <LazyExampleTranscript input={example!.input} modelOutput={example!.modelOutput} reader="other"
              idBase={`review-${example!.id}`} headingLevel={3} />
          )}
          <dl class="pairs">
            {!isTranscriptInput(example!.input) && <div><dt>{T.input}</dt><dd class="example-text" dir="auto">{text}</dd></div>}
            {label !== null && <div><dt>{T.label}</dt><dd>{label}</dd></div>}
            <div><dt>{T.status}</dt><dd>{T.statusText[example!.status.toUpperCase() as keyof typeof T.statusText] ?? example!.status}</dd></div>
            <div><dt>{T.model}</dt><dd>{T.modelOf(example!.modelName, example!.modelVersion)}</dd></div>
            <div><dt>{T.goldAnswer}</dt><dd>{review.goldAnswer ? T.labelText(review.goldAnswer) : T.noGold}</dd></div>
          </dl>
          <h3>{T.votesTitle}</h3>
          {review.votes.length === 0 ? <p class="hint">{T.noVotes}</p> : (
            <ul data-testid="review-votes">
              {review.votes.map((v, i) => (
                <li key={i}>
                  {T.vote(v.username, v.label, v.mode)} <span class="hint">{formatDateTime(v.createdAt)}</span>
                  {v.note && <div class="hint">{v.note}</div>}
                  {voteFieldPairs(v.fields).length > 0 && (
                    <dl class="pairs vote-fields">
                      {voteFieldPairs(v.fields).map(([name, answer]) => (
                        <div key={name}><dt>{name}</dt><dd class="example-text" dir="auto">{answer}</dd></div>
                      ))}
                    </dl>
                  )}
                </li>
              ))}
            </ul>
          )}
          <h3>{T.historyTitle}</h3>
          {review.history.length === 0 ? <p class="hint">{T.noHistory}</p> : (
            <ul data-testid="review-history">
              {review.history.map((h, i) => (
                <li key={i}>
                  {T.event(h.action, h.username)} <span class="hint">{formatDateTime(h.createdAt)}</span>
                  {h.note && <div class="hint">{h.note}</div>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </dialog>
  );
}
