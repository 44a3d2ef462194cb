/**
 * A task's instructions (markdown the server rendered and sanitized: server/core/markdown.py), shown before a
 * worker's first example of the task and on demand. The heading takes focus when the panel opens.
 */
import { useEffect, useRef } from "preact/hooks";
import { t } from "./i18n";

export function InstructionsPanel({ html, first, onDone }: { html: string; first: boolean; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // After the app's own focus move on a route change (app.tsx: the page title, in the next animation frame).
  useEffect(() => {
    let inner = 0;
    const outer = requestAnimationFrame(() => (inner = requestAnimationFrame(() => heading.current?.focus())));
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }, []);
  return (
    <section id="task-instructions" class="card instructions" aria-labelledby="instructions-title">
      <h2 id="instructions-title" tabIndex={-1} ref={heading}>{t("instructions.heading")}</h2>
      {first && <p class="hint">{t("instructions.first")}</p>}
      {/* Sanitized on the server (an allow-list: no scripts, styles, images or event handlers). */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      <div class="actions">
        <button type="button" class={first ? "primary" : undefined} onClick={onDone}>
          {first ? t("instructions.start") : t("instructions.close")}
        </button>
      </div>
    </section>
  );
}
