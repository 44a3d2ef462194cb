/**
 * Whether the app believes it can reach the API. Starts from navigator.onLine and follows the
 * online/offline events; a failed request marks it offline until a later request succeeds, or until the probe below
 * finds the API answering again.
 */
import { eventBus, observable } from "./observable";

export const online = observable<boolean>(typeof navigator === "undefined" ? true : navigator.onLine);

/** Fired when connectivity comes back (browser online event, or the first success after a failure). */
export const reconnected = eventBus<void>();

/** The API's liveness answer: read while the app believes it is cut off though the browser says it is online. */
export const PROBE_PATH = "/health/live";
export const PROBE_FIRST_MS = 1_000;
export const PROBE_MAX_MS = 30_000;

let probeTimer: ReturnType<typeof setTimeout> | null = null;

export function markReachable(): void {
  if (!online.get()) {
    online.set(true);
    reconnected.emit();
  }
}

/**
 * A request failed. Until another succeeds the app shows itself offline, and a page with nothing to send would stay so
 * for good (a request that failed just after the connection came back, a server restart): so while the browser says it
 * is online, the API is probed (1 s, then twice as long each time, at most 30 s) until it answers.
 */
export function markUnreachable(): void {
  online.set(false);
  probeSoon(PROBE_FIRST_MS);
}

function probeSoon(delay: number): void {
  if (probeTimer !== null || typeof window === "undefined") return;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    if (online.get()) return; // a request succeeded meanwhile
    if (!navigator.onLine) return; // the browser's online event brings it back
    fetch(PROBE_PATH, { cache: "no-store" }).then(
      (response) => (response.ok ? markReachable() : probeSoon(Math.min(delay * 2, PROBE_MAX_MS))),
      () => probeSoon(Math.min(delay * 2, PROBE_MAX_MS)),
    );
  }, delay);
}

export function watchNetwork(): void {
  window.addEventListener("online", () => markReachable());
  window.addEventListener("offline", () => markUnreachable());
}
