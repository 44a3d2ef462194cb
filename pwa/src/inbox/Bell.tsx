/** The header's bell: the unread count, live; a link to the inbox page. Its own chunk (loaded after the shell). */
import { useEffect } from "preact/hooks";
import { formatNumber } from "../i18n/format";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import { Icon } from "../ui/icons";
import { follow, inbox } from "./state";
import { INBOX_TEXT as T } from "./text";

export function Bell(_props: { user: string }) {
  const { unread } = useObservable(inbox);
  useEffect(() => follow(), []);
  return (
    <a class="inbox-bell" href={href("/inbox")} aria-label={T.bell(unread)} data-testid="inbox-bell">
      <Icon name="bell" />
      {unread > 0 && <span class="inbox-count" aria-hidden="true">{unread > 99 ? `${formatNumber(99)}+` : formatNumber(unread)}</span>}
    </a>
  );
}
