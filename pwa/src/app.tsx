/**
 * The shell: skip link, header, the routed page in <main>, and on a phone the bottom tab bar (pwa/src/ui/).
 * Header on a phone: one row (logo, sync status, bell, account menu; signed out: the language and "Log in"). From
 * 900 px: every section in the header. The language picker is in the account menu (in the header row from 900 px).
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { logOut, session } from "./auth/session";
import { LanguagePicker } from "./i18n/LanguagePicker";
import { currentLocale } from "./i18n/runtime";
import { lazyWidget } from "./lib/lazy";
import { useObservable } from "./lib/observable";
import { storedStudy, studyRedirect } from "./lib/studyGate";
import { SyncStatus } from "./outbox/SyncStatus";
import { currentPath, href, matchPattern, navigate, parse, usePath } from "./router";
import { routes } from "./routes";
import { tasksState } from "./tasks/store";
import { AccountMenu } from "./ui/AccountMenu";
import { useHeaderSizeVariable } from "./ui/headerSize";
import { currentFor, visibleItems, type Viewer } from "./ui/nav";
import { TabBar } from "./ui/TabBar";
import { SHELL_TEXT as T } from "./ui/text";

// The notifications bell: its own chunk, loaded once signed in (pwa/src/inbox/).
const Bell = lazyWidget<{ user: string }>(() => import("./inbox/Bell").then((m) => m.Bell));

export function App() {
  const fullPath = usePath();
  const { path, query } = parse(fullPath);
  const user = useObservable(session);
  const tasks = useObservable(tasksState).tasks;
  const mainRef = useRef<HTMLElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  useHeaderSizeVariable(headerRef);
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
  const viewer: Viewer | null = user
    ? { isAdmin: user.user.isAdmin, ownsTasks: user.user.isAdmin || (tasks?.some((task) => task.viewerIsOwner) ?? false) }
    : null;

  // A worker in a campaign's study (pwa/src/join/study.ts) is sent back to it from any other address, reloads too.
  const studyPath = studyRedirect(storedStudy(), user?.user.username, fullPath);
  useEffect(() => {
    if (studyPath) navigate(studyPath, { replace: true });
  }, [studyPath]);

  useEffect(() => {
    // Not when the address already moved on: logging out navigates to /login before the hashchange reaches usePath,
    // and sending the next person to /login?next=<the last page> would land them on someone else's page.
    if (needsLogin && currentPath() === fullPath) navigate(`/login?next=${encodeURIComponent(fullPath)}`, { replace: true });
  }, [needsLogin, fullPath]);

  // In the same commit as the page (a layout effect), and again when the language changes.
  const locale = currentLocale();
  useLayoutEffect(() => {
    document.title = T.pageTitle(found ? T.titles[route.title] : T.notFoundTitle);
  }, [fullPath, locale]);

  useEffect(() => {
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
      <a class="skip-link" href="#main" onClick={(e) => { e.preventDefault(); mainRef.current?.focus(); }}>{T.skip}</a>
      <header class="topbar" ref={headerRef}>
        <div class="topbar-inner">
          <a class="brand" href={href("/")}>
            <img src="/icons/icon-192.png" alt="" width={28} height={28} />
            <span class="brand-name">{T.appName}</span>
          </a>
          {viewer && (
            <nav class="topnav" aria-label={T.mainNav}>
              <ul>
                {visibleItems(viewer).map((item) => (
                  <li key={item.key}>
                    <a href={href(item.path)} aria-current={currentFor(item.key, path)}>{T.nav[item.key]}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <SyncStatus />
          <div class="account">
            {user ? (
              <>
                <Bell key={user.user.username} user={user.user.username} />
                <AccountMenu username={user.user.username} onLogOut={() => { logOut(); navigate("/login"); }} />
              </>
            ) : (
              <>
                <LanguagePicker id="header-language" compact />
                <a class="login-link" href={href("/login")}>{T.logIn}</a>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" ref={mainRef} tabIndex={-1}>
        {needsLogin ? null : found ? <Page key={fullPath} params={params} query={query} /> : (
          <section aria-labelledby="page-title">
            <h1 id="page-title" tabIndex={-1}>{T.notFound}</h1>
            <p><a href={href("/")}>{T.toTasks}</a></p>
          </section>
        )}
      </main>
      <footer class="footer">
        <p>{T.footer}</p>
      </footer>
      {viewer && <TabBar path={path} viewer={viewer} />}
    </>
  );
}
