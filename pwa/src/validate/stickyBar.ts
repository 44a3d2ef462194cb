/**
 * The phone's vote bar sits fixed above the bottom edge (validate.css); when the app shows a bottom tab bar
 * (.tabbar), the vote bar goes above it: its height is measured and kept in --tab-bar-height on the page.
 */
import { useEffect, type MutableRef } from "preact/hooks";

export function useAboveTabBar(page: MutableRef<HTMLElement | null>): void {
  useEffect(() => {
    const root = page.current;
    const bar = document.querySelector<HTMLElement>(".tabbar");
    if (!root || !bar || typeof ResizeObserver !== "function") return;
    const measure = () => {
      const style = getComputedStyle(bar);
      const atBottom = style.display !== "none" && (style.position === "fixed" || style.position === "sticky");
      root.style.setProperty("--tab-bar-height", atBottom ? `${bar.getBoundingClientRect().height}px` : "0px");
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);
}
