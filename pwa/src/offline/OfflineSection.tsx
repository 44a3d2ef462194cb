/**
 * The annotate page's offline verdict (lazy chunk): the "Prepare for offline" panel for the round's model, and,
 * for an example waiting in the outbox, the offline model's PROVISIONAL label; once the outbox delivers it the
 * server's verdict replaces it, with a note when the two differ. Only classifiers with an offline export
 * (`Round.offlineModel`) offer this; the runtime (worker + wasm) loads only when a model is prepared and used.
 */
import { useEffect, useState } from "preact/hooks";
import { request } from "../api/client";
import { useObservable } from "../lib/observable";
import { outboxItems } from "../outbox/store";
import { isExampleItem } from "../outbox/outbox";
import type { VerdictView } from "../annotate/verdict";
import { ROUND_OFFLINE_MODEL } from "./documents";
import { compareLabels, sameModel, totalBytes, type OfflineModel, type PreparedModel } from "./model";
import { TEXT, progress, readySince, serverDiffered, size, wouldSay } from "./text";
import "./offline.css";

type ShownLike =
  | { kind: "verdict"; view: VerdictView; clientId: string | null }
  | { kind: "queued"; clientId: string; reason: string }
  | { kind: "error"; message: string };

export interface Props {
  roundId: string;
  shown: ShownLike | null;
  online: boolean;
  context: Record<string, string>; // the context's fields (an NLI premise is one of the model's inputs)
}

type Guess = { state: "working" } | { state: "done"; label: string } | { state: "failed" };
const guesses = new Map<string, Guess>(); // by clientId: outlives the queued → verdict change of the page

export function OfflineSection({ roundId, shown, online, context }: Props) {
  const [prepared, setPrepared] = useState<PreparedModel | null>(null);
  const [checked, setChecked] = useState(false);
  const [, rerender] = useState(0);
  const items = useObservable(outboxItems);

  useEffect(() => {
    let cancelled = false;
    void import("./store").then(({ preparedFor }) =>
      preparedFor(roundId).then((found) => {
        if (cancelled) return;
        setPrepared(found);
        setChecked(true);
      }),
    );
    return () => {
      cancelled = true;
    };
  }, [roundId]);

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
  return (
    <>
      {guess && <ProvisionalNote guess={guess} shown={shown} clientId={clientId} />}
      {checked && <OfflinePanel roundId={roundId} online={online} prepared={prepared} onPrepared={setPrepared} />}
    </>
  );
}

function ProvisionalNote({ guess, shown, clientId }: { guess: Guess; shown: ShownLike | null; clientId: string | null }) {
  const server = shown?.kind === "verdict" ? shown.view.answers[0]?.label ?? null : null;
  if (shown?.kind === "verdict") {
    if (guess.state !== "done") return null;
    const comparison = compareLabels(guess.label, server);
    if (comparison === "unknown") return null;
    return (
      <p class={comparison === "differ" ? "note offline-compare" : "hint offline-compare"} role="status" data-testid="offline-compare" data-comparison={comparison}>
        {comparison === "differ" ? serverDiffered(guess.label, server!) : TEXT.serverAgreed}
      </p>
    );
  }
  if (shown?.kind !== "queued") return null;
  return (
    <section class="card provisional" aria-labelledby="provisional-title" data-testid="provisional-verdict" data-client-id={clientId ?? ""} data-label={guess.state === "done" ? guess.label : ""}>
      <h2 id="provisional-title">{TEXT.provisionalLabel}</h2>
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

interface PanelProps {
  roundId: string;
  online: boolean;
  prepared: PreparedModel | null;
  onPrepared: (prepared: PreparedModel | null) => void;
}

function OfflinePanel({ roundId, online, prepared, onPrepared }: PanelProps) {
  // What the server offers for the round now (undefined: not asked yet or offline; null: no export).
  const [current, setCurrent] = useState<OfflineModel | null | undefined>(undefined);
  const [busy, setBusy] = useState<{ done: number; total: number } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!online || current !== undefined) return;
    request(ROUND_OFFLINE_MODEL, { id: roundId }).then(
      (data) => setCurrent(data.node?.offlineModel ?? null),
      () => setCurrent(undefined),
    );
  }, [roundId, online]);

  const model = current !== undefined ? current : prepared?.model;
  // A retrained target is a new version: the prepared copy is outdated (it still answers until replaced).
  const outdated = !!prepared && !!current && !sameModel(prepared.model, current);
  if (model === null && !prepared) return null; // this round's target has no offline export: nothing to offer

  async function prepare() {
    if (!model) return;
    setMessage(null);
    setBusy({ done: 0, total: totalBytes(model) });
    try {
      const { prepareOffline } = await import("./store");
      onPrepared(await prepareOffline(roundId, model, (done, total) => setBusy({ done, total })));
    } catch {
      setMessage(TEXT.failed);
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    const { removeOffline } = await import("./store");
    await removeOffline(roundId);
    onPrepared(null);
    setMessage(TEXT.removed);
  }

  return (
    <section class="card offline-panel" aria-labelledby="offline-title" data-testid="offline-panel">
      <h2 id="offline-title">{TEXT.heading}</h2>
      {prepared && !busy ? (
        <>
          <p role="status" data-testid="offline-ready">{readySince(prepared.bytes)}</p>
          {outdated && (
            <>
              <p class="note" data-testid="offline-outdated">{TEXT.outdated}</p>
              <button type="button" onClick={() => void prepare()} disabled={!online}>{TEXT.update}</button>
            </>
          )}
          <button type="button" onClick={() => void remove()}>{TEXT.remove}</button>
        </>
      ) : (
        <>
          <p class="hint">{TEXT.intro}</p>
          {model && <p class="hint">{size(totalBytes(model))}</p>}
          {busy ? (
            <p role="status">
              {TEXT.preparing} <progress max={busy.total} value={busy.done} aria-label={TEXT.preparing} />{" "}
              {progress(busy.done, busy.total)}
            </p>
          ) : (
            <button type="button" onClick={() => void prepare()} disabled={!model || !online}>{TEXT.prepare}</button>
          )}
          {!online && !model && <p class="hint">{TEXT.needsConnection}</p>}
        </>
      )}
      {message && <p role="status" class={message === TEXT.failed ? "error" : "hint"}>{message}</p>}
    </section>
  );
}
