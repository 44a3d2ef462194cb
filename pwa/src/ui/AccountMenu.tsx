/**
 * The signed-in person in the header. On a phone: a round button opening a small menu (your account, the language,
 * log out);
 * from 900 px on the toggle hides and the same links sit in the header row (styles.css).
 */
import { useRef, useState } from "preact/hooks";
import { LanguagePicker } from "../i18n/LanguagePicker";
import { href } from "../router";
import { useDismiss } from "./dismiss";
import { Icon } from "./icons";
import { SHELL_TEXT as T } from "./text";

export function AccountMenu({ username, onLogOut }: { username: string; onLogOut: () => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, (refocus) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, root);
  return (
    <div class="account-menu" ref={root} data-open={String(open)}>
      <button
        type="button"
        class="account-toggle"
        ref={button}
        aria-expanded={open}
        aria-controls="account-panel"
        aria-label={T.account(username)}
        onClick={() => setOpen(!open)}
      >
        <Icon name="account" />
      </button>
      <div id="account-panel" class="account-panel">
        <a class="username" href={href("/account")} title={T.yourAccount} onClick={() => setOpen(false)}>
          <span class="account-name">{username}</span>
          <span class="account-hint">{T.yourAccount}</span>
        </a>
        <LanguagePicker id="menu-language" compact />
        <button type="button" class="link logout" onClick={() => { setOpen(false); onLogOut(); }}>{T.logOut}</button>
      </div>
    </div>
  );
}
