/** The context fields (a prompt, a premise, a passage). For QA, the passage is where the answer span is selected. */
import { useRef } from "preact/hooks";
import type { Context, TaskConfig } from "../api/types";
import { fieldLabel } from "../tasks/config";
import { trimSpan } from "./spans";

interface Props {
  config: TaskConfig;
  context: Context;
  passageField: string | null;
  span: { start: number; end: number } | null;
  onSelectSpan?: (span: { start: number; end: number }) => void;
}

export function ContextPanel({ config, context, passageField, span, onSelectSpan }: Props) {
  return (
    <section class="card context" aria-labelledby="context-title">
      <h2 id="context-title" class="visually-hidden">Context</h2>
      {config.context_fields.map((spec) => {
        const text = String(context.fields[spec.name] ?? "");
        const label = fieldLabel(spec);
        return (
          <div class="context-field" key={spec.name}>
            <h3 class="field-title" id={`context-${spec.name}-title`}>{label}</h3>
            {spec.name === passageField && onSelectSpan ? (
              <Passage text={text} span={span} labelledBy={`context-${spec.name}-title`} onSelectSpan={onSelectSpan} />
            ) : (
              <p class="context-text" data-field={spec.name}>{text}</p>
            )}
          </div>
        );
      })}
      {context.tag && <p class="hint">Tag: {context.tag}</p>}
    </section>
  );
}

function Passage({ text, span, labelledBy, onSelectSpan }: {
  text: string;
  span: { start: number; end: number } | null;
  labelledBy: string;
  onSelectSpan: (span: { start: number; end: number }) => void;
}) {
  const ref = useRef<HTMLParagraphElement>(null);

  function readSelection() {
    const element = ref.current;
    const selection = window.getSelection();
    if (!element || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
    const range = selection.getRangeAt(0);
    if (!element.contains(range.startContainer) || !element.contains(range.endContainer)) return;
    const before = document.createRange();
    before.selectNodeContents(element);
    before.setEnd(range.startContainer, range.startOffset);
    const start = before.toString().length;
    const trimmed = trimSpan(text, start, start + range.toString().length);
    if (trimmed) onSelectSpan(trimmed);
  }

  const valid = span && span.end <= text.length;
  return (
    <p
      ref={ref}
      class="context-text passage"
      data-field="passage"
      aria-labelledby={labelledBy}
      aria-describedby="passage-hint"
      onMouseUp={readSelection}
      onTouchEnd={readSelection}
      onKeyUp={readSelection}
    >
      {valid ? (
        <>
          {text.slice(0, span.start)}
          <mark class="answer-span">{text.slice(span.start, span.end)}</mark>
          {text.slice(span.end)}
        </>
      ) : text}
    </p>
  );
}
