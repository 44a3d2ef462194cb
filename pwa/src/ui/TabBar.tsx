/**
 * The phone's bottom tab bar (hidden from 900 px on, where the header lists every section): the person's main
 * sections as tabs, the others under "More" (a disclosure panel above the bar).
 */
import { useRef, useState } from "preact/hooks";
import { href } from "../router";
import { useDismiss } from "./dismiss";
import { Icon } from "./icons";
import { currentFor, navItem, sectionOf, tabLayout, type Viewer } from "./nav";
import { SHELL_TEXT as T } from "./text";

export function TabBar({ path, viewer }: { path: string; viewer: Viewer }) {
  const { tabs, more } = tabLayout(viewer);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  useDismiss(open, close, root);
  const section = sectionOf(path);
  const inMore = section !== null && more.includes(section);

  return (
    <nav class="tabbar" aria-label={T.mainNav} ref={root} data-testid="tab-bar">
      <ul class="tabbar-list">
        {tabs.map((key) => (
          <li key={key}>
            <a class="tab" href={href(navItem(key).path)} aria-current={currentFor(key, path)} data-tab={key}>
              <Icon name={key} />
              <span class="tab-label">{T.nav[key]}</span>
            </a>
          </li>
        ))}
        <li>
          <button
            type="button"
            class="tab"
            ref={button}
            aria-expanded={open}
            aria-controls="tabbar-more"
            aria-current={inMore ? "true" : undefined}
            data-tab="more"
            onClick={() => setOpen(!open)}
          >
            <Icon name="more" />
            <span class="tab-label">{T.more}</span>
          </button>
        </li>
      </ul>
      <div id="tabbar-more" class="tabbar-more" hidden={!open}>
        <h2 class="visually-hidden">{T.moreTitle}</h2>
        <ul>
          {more.map((key) => (
            <li key={key}>
              <a href={href(navItem(key).path)} aria-current={currentFor(key, path)} data-more={key} onClick={() => setOpen(false)}>
                <Icon name={key} />
                <span>{T.nav[key]}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
