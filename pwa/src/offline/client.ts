/** `provisionalVerdict`: ask the offline model (in its Web Worker, started on first use) for a label. */
import { preparedFor } from "./store";

export interface Provisional {
  label: string;
  probs: number[];
}

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (p: Provisional) => void; reject: (e: Error) => void }>();

function startWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  worker.onmessage = (event: MessageEvent<{ id: number; label?: string; probs?: number[]; error?: string }>) => {
    const { id, label, probs, error } = event.data;
    const pending = waiting.get(id);
    waiting.delete(id);
    if (!pending) return;
    if (error || !label) pending.reject(new Error(error ?? "no answer"));
    else pending.resolve({ label, probs: probs ?? [] });
  };
  worker.onerror = (event) => {
    for (const pending of waiting.values()) pending.reject(new Error(event.message || "worker failed"));
    waiting.clear();
    worker = null;
  };
  return worker;
}

/** The offline model's label for an example of the round, or null when the round's model is not prepared. */
export async function provisionalVerdict(roundId: string, fields: Record<string, unknown>): Promise<Provisional | null> {
  const prepared = await preparedFor(roundId);
  if (!prepared) return null;
  const id = nextId++;
  // The worker keeps one loaded model; a new key (the round's model prepared again, e.g. retrained) reloads it.
  const key = `${roundId}|${prepared.model.name}/${prepared.model.version}|${prepared.preparedAt}`;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    startWorker().postMessage({ id, roundId, key, fields });
  });
}
