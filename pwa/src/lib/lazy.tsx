/**
 * A page loaded on first use (its own chunk: the base bundle stays small). The service worker precaches every chunk,
 * so a lazy page opens offline too once the app was installed.
 */
import type { ComponentType } from "preact";
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { SHELL_TEXT as T } from "../ui/text";

export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function LazyPage(props: P) {
    const [Page, setPage] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    const [refocus, setRefocus] = useState(false);
    useEffect(() => {
      if (Page) return;
      load().then(
        (component) => {
          loaded = component;
          // The shell focused the placeholder's heading: the page's own heading takes the focus over.
          setRefocus(document.activeElement?.id === "page-title");
          setPage(() => component);
        },
        () => setFailed(true),
      );
    }, []);
    useLayoutEffect(() => {
      if (Page && refocus && (document.activeElement === document.body || !document.activeElement)) {
        document.getElementById("page-title")?.focus();
      }
    }, [Page, refocus]);
    if (Page) return <Page {...props} />;
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1}>{failed ? T.pageFailed : T.pageLoading}</h1>
        {failed && <button type="button" onClick={() => window.location.reload()}>{T.reload}</button>}
      </section>
    );
  };
}

/** A small part of a page (e.g. the header's bell) in its own chunk: nothing shows until it has loaded. */
export function lazyWidget<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function LazyWidget(props: P) {
    const [Widget, setWidget] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Widget) return;
      load().then(
        (component) => {
          loaded = component;
          setWidget(() => component);
        },
        () => {},
      );
    }, []);
    return Widget ? <Widget {...props} /> : null;
  };
}

/** Fetch a chunk once the browser is idle after start-up (not part of the first paint, ready when first opened). */
export function prefetchWhenIdle(load: () => Promise<unknown>): void {
  if (typeof window === "undefined") return;
  const run = () => void load().catch(() => {});
  const idle = (window as { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number }).requestIdleCallback;
  if (idle) idle(run, { timeout: 5000 });
  else setTimeout(run, 2000);
}
