/**
 * The offline model's PROVISIONAL verdict for an example waiting in the outbox (lazy chunk), shown in the verdict
 * card right under "saved on this device", above the attempts: where the writer looks. Once the outbox delivers the
 * example, the server's verdict replaces it, with a note when the two differ.
 */
import { useEffect, useState } from "preact/hooks";
import { useObservable } from "../lib/observable";
import { outboxItems } from "../outbox/store";
import { isExampleItem } from "../outbox/outbox";
import type { VerdictView } from "../annotate/verdict";
import { compareLabels } from "./model";
import { usePrepared } from "./prepared";
import { TEXT, serverDiffered, wouldSay } from "./text";
import "./offline.css";

type ShownLike =
  | { kind: "verdict"; view: VerdictView; clientId: string | null }
  | { kind: "queued"; clientId: string; reason: string }
  | { kind: "error"; message: string };

export interface Props {
  roundId: string;
  shown: ShownLike | null;
  context: Record<string, string>; // the context's fields (an NLI premise is one of the model's inputs)
}

type Guess = { state: "working" } | { state: "done"; label: string } | { state: "failed" };
const guesses = new Map<string, Guess>(); // by clientId: outlives the queued → verdict change of the page

export function Provisional({ roundId, shown, context }: Props) {
  const prepared = usePrepared(roundId);
  const [, rerender] = useState(0);
  const items = useObservable(outboxItems);

  // A queued example of this round: ask the offline model once.
  const clientId = shown && shown.kind !== "error" ? shown.clientId : null;
  useEffect(() => {
    if (shown?.kind !== "queued" || !prepared || !clientId || guesses.has(clientId)) return;
    const item = items.find((i) => i.clientId === clientId);
    if (!item || !isExampleItem(item)) return;
    guesses.set(clientId, { state: "working" });
    rerender((n) => n + 1);
    const fields = { ...context, ...item.input.fields };
    void import("./client")
      .then(({ provisionalVerdict }) => provisionalVerdict(roundId, fields))
      .then(
        (answer) => guesses.set(clientId, answer ? { state: "done", label: answer.label } : { state: "failed" }),
        () => guesses.set(clientId, { state: "failed" }),
      )
      .finally(() => rerender((n) => n + 1));
  }, [shown?.kind, clientId, prepared, items]);

  const guess = clientId ? guesses.get(clientId) : undefined;
  if (!guess) return null;
  if (shown?.kind === "verdict") {
    const server = shown.view.answers[0]?.label ?? null;
    const comparison = guess.state === "done" ? compareLabels(guess.label, server) : "unknown";
    if (guess.state !== "done" || comparison === "unknown") return null;
    return (
      <p class={comparison === "differ" ? "note offline-compare" : "hint offline-compare"} role="status" data-testid="offline-compare" data-comparison={comparison}>
        {comparison === "differ" ? serverDiffered(guess.label, server!) : TEXT.serverAgreed}
      </p>
    );
  }
  if (shown?.kind !== "queued") return null;
  return (
    <section class="provisional" aria-labelledby="provisional-title" data-testid="provisional-verdict" data-client-id={clientId ?? ""} data-label={guess.state === "done" ? guess.label : ""}>
      <h3 id="provisional-title">{TEXT.provisionalTitle}</h3>
      <p role="status">
        {guess.state === "working" && TEXT.working}
        {guess.state === "failed" && TEXT.guessFailed}
        {guess.state === "done" && (
          <>
            <strong>{TEXT.provisionalLabel}:</strong> {wouldSay(guess.label)} <em>({TEXT.offlineGuess})</em>
          </>
        )}
      </p>
    </section>
  );
}
