/**
 * A task's instructions (markdown the server rendered and sanitized: server/core/markdown.py), shown before a
 * worker's first example of the task and on demand. The heading takes focus when the panel opens.
 */
import { useEffect, useRef } from "preact/hooks";
import { ANNOTATE_TEXT as T } from "./text";

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
      <h2 id="instructions-title" tabIndex={-1} ref={heading}>{T.instructionsHeading}</h2>
      {first && <p class="hint">{T.instructionsFirst}</p>}
      {/* Sanitized on the server (an allow-list: no scripts, styles, images or event handlers). */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      <div class="actions">
        <button type="button" class={first ? "primary" : undefined} onClick={onDone}>
          {first ? T.instructionsStart : T.instructionsClose}
        </button>
      </div>
    </section>
  );
}
