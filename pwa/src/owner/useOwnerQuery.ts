/**
 * The owner pages' load-and-reconnect block as one hook: run `fetch` now, again whenever `deps` change and whenever
 * the network comes back (lib/network `reconnected`), keeping the last answer and a readable error. An answer that
 * arrives after a newer load started is dropped, so a slow earlier request never overwrites a later one.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../api/client";
import { reconnected } from "../lib/network";

export interface OwnerQuery<T> {
  data: T | undefined; // undefined until the first answer
  error: string | null;
  reload: () => Promise<void>;
  setData: (value: T) => void; // e.g. a mutation's answer, without a new request
}

export function useOwnerQuery<T>(fetch: () => Promise<T>, deps: readonly unknown[]): OwnerQuery<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;

  async function reload() {
    const call = ++latest.current;
    try {
      const value = await fetchRef.current();
      if (call !== latest.current) return;
      setData(() => value);
      setError(null);
    } catch (problem) {
      if (call === latest.current) setError(describeError(problem));
    }
  }
  useEffect(() => {
    void reload();
    return reconnected.on(() => void reload());
  }, deps);
  return { data, error, reload, setData: (value: T) => setData(() => value) };
}
