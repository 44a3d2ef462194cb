/** Always visible: online or not, how many examples wait to be sent, and whether sending is stuck. */
import { session } from "../auth/session";
import { formatNumber } from "../i18n/format";
import { online } from "../lib/network";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { SHELL_TEXT as T } from "../ui/text";
import { pendingCount } from "./outbox";
import { outboxItems } from "./store";
import { syncState } from "./sync";

export function SyncStatus() {
  const isOnline = useObservable(online);
  const items = useObservable(outboxItems);
  const state = useObservable(syncState);
  const user = useObservable(session);
  const pending = pendingCount(items, user?.user.username ?? null);
  const failed = items.filter((item) => item.state === "failed" && item.username === user?.user.username).length;

  return (
    <div class="sync-status" role="status" aria-live="polite" data-online={String(isOnline)} data-pending={pending}>
      <span class={`dot ${isOnline ? "dot-on" : "dot-off"}`} aria-hidden="true" />
      <span>{isOnline ? T.online : T.offline}</span>
      <span aria-hidden="true">·</span>
      <a href={href("/outbox")} class="pending-link">
        <span data-testid="pending-count">{formatNumber(pending)}</span> {T.waitingToSync(pending)}
      </a>
      {failed > 0 && <span class="warn">{T.failedCount(failed)}</span>}
      {state.kind === "syncing" && <span>{T.sending}</span>}
      {state.kind === "signIn" && pending > 0 && <a href={href("/login")}>{T.logInToSend}</a>}
    </div>
  );
}
