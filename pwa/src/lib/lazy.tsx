/**
 * A page loaded on first use (its own chunk: the base bundle stays small). The service worker precaches every chunk,
 * so a lazy page opens offline too once the app was installed.
 */
import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { SHELL_TEXT as T } from "../ui/text";


export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function LazyPage(props: P) {
    const [Page, setPage] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (Page) return;
      load().then(
        (component) => {
          loaded = component;
          setPage(() => component);
        },
        () => setFailed(true),
      );
    }, []);
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
