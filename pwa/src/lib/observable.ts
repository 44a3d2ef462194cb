/** A tiny observable value: the app's shared state (session, network, outbox) without a framework. */
import { useEffect, useState } from "preact/hooks";

export interface Observable<T> {
  get(): T;
  set(value: T): void;
  update(change: (value: T) => T): void;
  subscribe(listener: (value: T) => void): () => void;
}

export function observable<T>(initial: T): Observable<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener(value);
    },
    update(change) {
      this.set(change(value));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Re-render a component whenever the observable changes. */
export function useObservable<T>(source: Observable<T>): T {
  const [value, setValue] = useState(source.get());
  useEffect(() => {
    setValue(source.get());
    return source.subscribe(setValue);
  }, [source]);
  return value;
}

/** A simple event bus for "something changed, re-read your state" signals. */
export function eventBus<T = void>() {
  const listeners = new Set<(payload: T) => void>();
  return {
    emit(payload: T) {
      for (const listener of [...listeners]) listener(payload);
    },
    on(listener: (payload: T) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
