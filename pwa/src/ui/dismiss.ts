/**
 * Close a pop-up (the tab bar's "More", the account menu) on Escape, on a tap outside it, and on navigation.
 * A layout effect: the listeners are in place by the time the opened pop-up is painted (a plain effect runs a frame
 * later, and an Escape pressed right after opening went unheard).
 */
import type { RefObject } from "preact";
import { useLayoutEffect } from "preact/hooks";

export function useDismiss(open: boolean, close: (refocus: boolean) => void, root: RefObject<HTMLElement>): void {
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close(true);
    };
    const onPointer = (event: Event) => {
      if (root.current && !root.current.contains(event.target as Node)) close(false);
    };
    const onNavigate = () => close(false);
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    window.addEventListener("hashchange", onNavigate);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
      window.removeEventListener("hashchange", onNavigate);
    };
  }, [open]);
}
