/** The validate page's empty queue, in words that agree with the count beside it (queue.ts emptyQueue). */
import type { EmptyQueue } from "./queue";
import { VALIDATE_TEXT as T } from "./text";

export function EmptyQueueNote({ state, onAskAgain }: { state: EmptyQueue; onAskAgain: () => void }) {
  if (state === "loading") return <p role="status" data-testid="queue-loading">{T.loadingMore}</p>;
  if (state === "offline") return <p data-testid="queue-offline">{T.offlineWaiting}</p>;
  if (state === "held") {
    return (
      <div data-testid="queue-held">
        <p>{T.heldWaiting}</p>
        <button type="button" onClick={onAskAgain}>{T.askAgain}</button>
      </div>
    );
  }
  return <p data-testid="queue-empty">{T.empty}</p>;
}
