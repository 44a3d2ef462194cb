/** The admin pages' frame: the section tabs, the page heading, and the "admins only" view for everyone else. */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { GraphQLError, describeError } from "../api/client";
import { session } from "../auth/session";
import { useObservable } from "../lib/observable";
import { href } from "../router";
import type { Connection, PageInfo } from "./documents";
import { appendPage, isForbidden } from "./logic";
import { ADMIN_TEXT as T } from "./text";
import "./admin.css";

export type AdminTab = "users" | "approvals" | "models" | "audit";

const TABS: { tab: AdminTab; path: string; label: string }[] = [
  { tab: "users", path: "/admin", label: T.usersTab },
  { tab: "approvals", path: "/admin/approvals", label: T.approvalsTab },
  { tab: "models", path: "/admin/models", label: T.modelsTab },
  { tab: "audit", path: "/admin/audit", label: T.auditTab },
];

export function NotAllowed() {
  return (
    <section class="card narrow" aria-labelledby="page-title" data-testid="not-allowed">
      <h1 id="page-title" tabIndex={-1}>{T.notAllowedTitle}</h1>
      <p>{T.notAllowed}</p>
      <p><a href={href("/")}>{T.toTasks}</a></p>
    </section>
  );
}

export function AdminFrame({ tab, title, forbidden, children }: { tab: AdminTab; title: string; forbidden?: boolean; children: ComponentChildren }) {
  const user = useObservable(session)?.user;
  if (!user?.isAdmin || forbidden) return <NotAllowed />;
  return (
    <section aria-labelledby="page-title" class="admin">
      <nav aria-label={T.sectionsLabel} class="admin-tabs">
        <ul>
          {TABS.map((t) => (
            <li key={t.tab}>
              <a href={href(t.path)} aria-current={t.tab === tab ? "page" : undefined}>{t.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <h1 id="page-title" tabIndex={-1}>{title}</h1>
      {children}
    </section>
  );
}

export interface Loaded<T> {
  data: T | null;
  error: string;
  forbidden: boolean;
  setData: (value: T) => void;
}

/** Load once per change of `deps`; a FORBIDDEN refusal shows the "admins only" view instead of an error. */
export function useAdminLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState("");
  const [forbidden, setForbidden] = useState(false);
  useEffect(() => {
    let live = true;
    setError("");
    load().then(
      (value) => live && setData(value),
      (problem) => {
        if (!live) return;
        if (problem instanceof GraphQLError && isForbidden(problem.codes)) setForbidden(true);
        else setError(describeError(problem));
      },
    );
    return () => { live = false; };
  }, deps);
  return { data, error, forbidden, setData };
}

export interface Paged<T> {
  items: T[] | null;
  setItems: (items: T[]) => void;
  hasMore: boolean;
  loadMore: () => Promise<void>;
  error: string;
  forbidden: boolean;
}

/** A connection read page by page (20 at a time), restarted whenever `deps` change. */
export function usePaged<T>(fetchPage: (after: string | null) => Promise<Connection<T>>, deps: unknown[]): Paged<T> {
  const first = useAdminLoad(() => fetchPage(null), deps);
  const [items, setItems] = useState<T[] | null>(null);
  const [info, setInfo] = useState<PageInfo | null>(null);
  const [moreError, setMoreError] = useState("");
  useEffect(() => setItems(null), deps);
  useEffect(() => {
    if (!first.data) return;
    setItems(appendPage(null, first.data));
    setInfo(first.data.pageInfo);
  }, [first.data]);
  async function loadMore() {
    if (!info?.endCursor || !items) return;
    try {
      const next = await fetchPage(info.endCursor);
      setItems(appendPage(items, next));
      setInfo(next.pageInfo);
      setMoreError("");
    } catch (problem) {
      setMoreError(describeError(problem));
    }
  }
  return { items, setItems, hasMore: !!info?.hasNextPage, loadMore, error: first.error || moreError, forbidden: first.forbidden };
}

export function MoreButton({ paged }: { paged: Pick<Paged<unknown>, "hasMore" | "loadMore"> }) {
  return paged.hasMore ? <button type="button" class="more" onClick={() => void paged.loadMore()}>{T.more}</button> : null;
}
