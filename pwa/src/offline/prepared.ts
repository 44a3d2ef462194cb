/**
 * Which rounds' models this device has prepared (per round id: absent — not checked yet, null — none), shared by the
 * panel that prepares one and the provisional verdict that uses it.
 */
import { useEffect } from "preact/hooks";
import { observable, useObservable } from "../lib/observable";
import type { PreparedModel } from "./model";

export const preparedRounds = observable<Record<string, PreparedModel | null>>({});

export function setPrepared(roundId: string, prepared: PreparedModel | null): void {
  preparedRounds.update((all) => ({ ...all, [roundId]: prepared }));
}

/** The round's prepared model, read from the device's cache on first use. */
export function usePrepared(roundId: string): PreparedModel | null | undefined {
  const all = useObservable(preparedRounds);
  useEffect(() => {
    let cancelled = false;
    void import("./store")
      .then(({ preparedFor }) => preparedFor(roundId))
      .then(
        (found) => !cancelled && setPrepared(roundId, found),
        () => !cancelled && setPrepared(roundId, null),
      );
    return () => {
      cancelled = true;
    };
  }, [roundId]);
  return all[roundId];
}
