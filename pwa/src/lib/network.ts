/**
 * Whether the app believes it can reach the API. Starts from navigator.onLine and follows the
 * online/offline events; a failed request marks it offline until a later request succeeds.
 */
import { eventBus, observable } from "./observable";

export const online = observable<boolean>(typeof navigator === "undefined" ? true : navigator.onLine);

/** Fired when connectivity comes back (browser online event, or the first success after a failure). */
export const reconnected = eventBus<void>();

export function markReachable(): void {
  if (!online.get()) {
    online.set(true);
    reconnected.emit();
  }
}

export function markUnreachable(): void {
  online.set(false);
}

export function watchNetwork(): void {
  window.addEventListener("online", () => markReachable());
  window.addEventListener("offline", () => markUnreachable());
}
