/**
 * The annotate page's "Offline verdicts" panel (lazy chunk): prepare the round's model for offline use, see what it
 * downloads and keeps, update an outdated copy, remove it. Only classifiers with an offline export
 * (`Round.offlineModel`) offer this; the runtime (worker + wasm) loads only when a model is prepared and used. The
 * provisional verdict itself is in Provisional.tsx.
 */
import { useEffect, useState } from "preact/hooks";
import { request } from "../api/client";
import { ROUND_OFFLINE_MODEL } from "./documents";
import { sameModel, sizeFacts, storedFacts, type OfflineModel, type PreparedModel } from "./model";
import { setPrepared, usePrepared } from "./prepared";
import { TEXT, downloadSize, progress, readyStored } from "./text";
import "./offline.css";

export interface Props {
  roundId: string;
  online: boolean;
}

export function OfflineSection({ roundId, online }: Props) {
  const prepared = usePrepared(roundId);
  if (prepared === undefined) return null; // not checked yet
  return <OfflinePanel roundId={roundId} online={online} prepared={prepared} />;
}

interface PanelProps {
  roundId: string;
  online: boolean;
  prepared: PreparedModel | null;
}

function OfflinePanel({ roundId, online, prepared }: PanelProps) {
  // What the server offers for the round now (undefined: not asked yet or offline; null: no export).
  const [current, setCurrent] = useState<OfflineModel | null | undefined>(undefined);
  const [busy, setBusy] = useState<{ done: number; total: number } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [runtime, setRuntime] = useState<number | null>(null); // the runtime's wasm (bytes), when known
  const onPrepared = (next: PreparedModel | null) => setPrepared(roundId, next);

  useEffect(() => {
    void import("./store").then(({ runtimeBytes }) => runtimeBytes()).then(setRuntime, () => {});
  }, []);

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
  // One figure before and after: what preparing downloads (the model and the runtime); once prepared, what is kept.
  const facts = prepared && !outdated ? storedFacts(prepared) : model ? sizeFacts(model, runtime) : null;

  async function prepare() {
    if (!model) return;
    setMessage(null);
    const { total } = sizeFacts(model, runtime);
    setBusy({ done: 0, total });
    try {
      const { prepareOffline } = await import("./store");
      onPrepared(await prepareOffline(roundId, model, (done, all) => setBusy({ done, total: all }), runtime));
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
          <p role="status" data-testid="offline-ready">{readyStored(prepared.bytes)}</p>
          {facts && <p class="hint" data-testid="offline-size">{downloadSize(facts)}</p>}
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
          {facts && <p class="hint" data-testid="offline-size">{downloadSize(facts)}</p>}
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
