/** Admins: find accounts; change a role, disable or enable, sign out everywhere, hand over a password reset link. */
import { useRef, useState } from "preact/hooks";
import { describeError, request } from "../api/client";
import type { ErrorResult } from "../api/types";
import type { PageProps } from "../routes";
import { AdminFrame, MoreButton, usePaged } from "./AdminFrame";
import { Confirm } from "./Confirm";
import {
  ADMIN_USERS,
  type AdminUser,
  ISSUE_RESET,
  RESET_USER_SESSIONS,
  SET_USER_DISABLED,
  SET_USER_ROLE,
} from "./documents";
import { errorLine, replaceById, type RoleFilter, type StateFilter, userFilters, when } from "./logic";
import { ADMIN_TEXT as T } from "./text";

type Action = "role" | "disable" | "reset" | "issue";
type Status = { text: string; ok: boolean; link?: string } | null;

export function UsersPage(_props: PageProps) {
  const [search, setSearch] = useState("");
  const [role, setRole] = useState<RoleFilter>("");
  const [state, setState] = useState<StateFilter>("");
  const [applied, setApplied] = useState(userFilters("", "", ""));
  const paged = usePaged((after) => request(ADMIN_USERS, { ...applied, after }).then((d) => d.adminUsers), [applied]);
  const list = paged.items;
  const [open, setOpen] = useState<{ id: string; action: Action } | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  function show(next: Status) {
    setStatus(next);
    requestAnimationFrame(() => statusRef.current?.focus());
  }

  async function act(user: AdminUser, action: Action, reason: string) {
    setBusy(true);
    try {
      let result: { __typename: string; user?: AdminUser; link?: string } | ErrorResult;
      let done = "";
      if (action === "role") {
        const admin = user.role !== "ADMIN";
        result = (await request(SET_USER_ROLE, { userId: user.id, role: admin ? "ADMIN" : "USER" })).setUserRole;
        done = T.roleDone(user.username, admin);
      } else if (action === "disable") {
        result = (await request(SET_USER_DISABLED, { userId: user.id, disabled: !user.disabled, reason })).setUserDisabled;
        done = T.disabledDone(user.username, !user.disabled);
      } else if (action === "reset") {
        result = (await request(RESET_USER_SESSIONS, { userId: user.id })).resetUserSessions;
        done = T.resetDone(user.username);
      } else {
        result = (await request(ISSUE_RESET, { username: user.username })).adminIssuePasswordReset;
        done = T.issued(user.username);
      }
      if ("code" in result) {
        show({ text: errorLine(result as ErrorResult), ok: false });
        return;
      }
      if ("user" in result && result.user) paged.setItems(replaceById(list ?? [], result.user));
      setOpen(null);
      show({ text: done, ok: true, link: "link" in result ? result.link : undefined });
    } catch (e) {
      show({ text: describeError(e), ok: false });
    } finally {
      setBusy(false);
    }
  }

  function question(user: AdminUser, action: Action): string {
    if (action === "role") return user.role === "ADMIN" ? T.confirmMakeUser(user.username) : T.confirmMakeAdmin(user.username);
    if (action === "disable") return user.disabled ? T.confirmEnable(user.username) : T.confirmDisable(user.username);
    if (action === "reset") return T.confirmReset(user.username);
    return T.confirmIssue(user.username);
  }

  return (
    <AdminFrame tab="users" title={T.usersTitle} forbidden={paged.forbidden}>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => { e.preventDefault(); setApplied(userFilters(search, role, state)); }}
      >
        <div class="field">
          <label for="admin-search">{T.searchLabel}</label>
          <input dir="auto" id="admin-search" type="search" maxLength={100} value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="admin-role">{T.roleFilter}</label>
          <select id="admin-role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as RoleFilter)}>
            <option value="">{T.anyRole}</option>
            <option value="ADMIN">{T.admin}</option>
            <option value="USER">{T.user}</option>
          </select>
        </div>
        <div class="field">
          <label for="admin-state">{T.stateFilter}</label>
          <select id="admin-state" value={state} onChange={(e) => setState((e.target as HTMLSelectElement).value as StateFilter)}>
            <option value="">{T.anyState}</option>
            <option value="active">{T.activeOnly}</option>
            <option value="disabled">{T.disabledOnly}</option>
          </select>
        </div>
        <button type="submit">{T.search}</button>
      </form>
      <div ref={statusRef} tabIndex={-1} role="status" aria-live="polite" class="alert-slot" data-testid="admin-status">
        {status && <p class={status.ok ? "notice-ok" : "error"}>{status.text}</p>}
        {status?.link && <p><code class="reset-link" data-testid="reset-link">{status.link}</code></p>}
      </div>
      {paged.error && <p role="alert" class="error">{paged.error}</p>}
      {list === null ? (!paged.error && <p role="status">{T.loading}</p>) : list.length === 0 ? <p>{T.noUsers}</p> : (
        <>
          <p class="hint">{T.userCount(list.length, paged.hasMore)}</p>
          <ul class="example-list" aria-label={T.usersTitle} data-testid="admin-users">
            {list.map((user) => (
              <li key={user.id} class="card" data-user={user.username}>
                <h2 class="card-title">
                  {user.username}{" "}
                  <span class="badge">{user.role === "ADMIN" ? T.admin : T.user}</span>
                  {user.disabled && <> <span class="badge badge-warn">{T.disabledBadge}</span></>}
                </h2>
                <p class="hint">
                  {user.email ? `${user.email} (${user.emailVerified ? T.emailVerified : T.emailUnverified})` : T.emailNone}
                  {" · "}{T.joined(when(user.createdAt))}{" · "}{T.lastSeen(user.lastSeenAt ? when(user.lastSeenAt) : null)}
                </p>
                {user.disabledReason && <p>{T.disabledBecause(user.disabledReason)}</p>}
                {open?.id === user.id ? (
                  <Confirm
                    id={`confirm-${open.action}`}
                    question={question(user, open.action)}
                    reason={open.action === "disable" && !user.disabled ? { label: T.reasonLabel, required: true } : undefined}
                    busy={busy}
                    onConfirm={(reason) => void act(user, open.action, reason)}
                    onCancel={() => setOpen(null)}
                  />
                ) : (
                  <div class="actions">
                    <button type="button" onClick={() => setOpen({ id: user.id, action: "role" })}>
                      {user.role === "ADMIN" ? T.makeUser : T.makeAdmin}
                    </button>{" "}
                    <button type="button" onClick={() => setOpen({ id: user.id, action: "disable" })}>
                      {user.disabled ? T.enable : T.disable}
                    </button>{" "}
                    <button type="button" onClick={() => setOpen({ id: user.id, action: "reset" })}>{T.resetSessions}</button>{" "}
                    <button type="button" onClick={() => setOpen({ id: user.id, action: "issue" })}>{T.issueReset}</button>
                  </div>
                )}
              </li>
            ))}
          </ul>
          <MoreButton paged={paged} />
        </>
      )}
    </AdminFrame>
  );
}
