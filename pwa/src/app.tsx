/** The shell: skip link, header with navigation and sync status, the routed page in <main>. */
import { useEffect, useRef } from "preact/hooks";
import { logOut, session } from "./auth/session";
import { lazyWidget } from "./lib/lazy";
import { useObservable } from "./lib/observable";
import { SyncStatus } from "./outbox/SyncStatus";
import { href, matchPattern, navigate, parse, usePath } from "./router";
import { routes } from "./routes";

// The notifications bell: its own chunk, loaded once signed in (pwa/src/inbox/).
const Bell = lazyWidget<{ user: string }>(() => import("./inbox/Bell").then((m) => m.Bell));

export function App() {
  const fullPath = usePath();
  const { path, query } = parse(fullPath);
  const user = useObservable(session);
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);

  let route = routes[0];
  let params: Record<string, string> = {};
  let found = false;
  for (const candidate of routes) {
    const match = matchPattern(candidate.path, path);
    if (match) {
      route = candidate;
      params = match;
      found = true;
      break;
    }
  }
  const needsLogin = !route.public && !user;

  useEffect(() => {
    if (needsLogin) navigate(`/login?next=${encodeURIComponent(fullPath)}`, { replace: true });
  }, [needsLogin, fullPath]);

  useEffect(() => {
    document.title = `${found ? route.title : "Not found"} · Dynabench`;
    // Move focus to the new page's heading (not on first load), so screen readers announce it.
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    requestAnimationFrame(() => (document.getElementById("page-title") ?? mainRef.current)?.focus());
  }, [fullPath]);

  const Page = route.page;
  return (
    <>
      <a class="skip-link" href="#main" onClick={(e) => { e.preventDefault(); mainRef.current?.focus(); }}>Skip to content</a>
      <header class="topbar">
        <div class="topbar-inner">
          <a class="brand" href={href("/")}>
            <img src="/icons/icon-192.png" alt="" width={28} height={28} />
            <span>Dynabench</span>
          </a>
          {user && (
            <nav aria-label="Main">
              <ul>
                {routes.filter((r) => r.nav && (!r.admin || user.user.isAdmin)).map((r) => (
                  <li key={r.path}>
                    <a href={href(r.path)} aria-current={route === r && found ? "page" : undefined}>{r.nav}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <div class="account">
            {user ? (
              <>
                <Bell key={user.user.username} user={user.user.username} />
                <a class="username" href={href("/account")} title="Your account">{user.user.username}</a>
                <button type="button" class="link" onClick={() => { logOut(); navigate("/login"); }}>Log out</button>
              </>
            ) : (
              <a href={href("/login")}>Log in</a>
            )}
          </div>
        </div>
        <div class="topbar-inner">
          <SyncStatus />
        </div>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1}>
        {needsLogin ? null : found ? <Page key={fullPath} params={params} query={query} /> : (
          <section aria-labelledby="page-title">
            <h1 id="page-title" tabIndex={-1}>Page not found</h1>
            <p><a href={href("/")}>Go to the tasks</a></p>
          </section>
        )}
      </main>
      <footer class="footer">
        <p>Dynabench — dynamic adversarial data collection. Your drafts and unsent examples stay on this device until they are delivered.</p>
      </footer>
    </>
  );
}
