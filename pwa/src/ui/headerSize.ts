/**
 * The header's height as the CSS variable --topbar-block-size: on wide screens the header sticks to the top, and what
 * else sticks (the annotate page's sandbox banner, its side column) must sit below it however many rows it wraps to.
 */
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";

export function useHeaderSizeVariable(header: RefObject<HTMLElement>): void {
  useEffect(() => {
    const element = header.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty("--topbar-block-size", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => observer.disconnect();
  }, [header]);
}
