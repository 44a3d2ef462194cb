/**
 * The context fields (a prompt, a premise, a passage), with the "New context" control in its corner. For QA, the
 * passage is where the answer span is selected: with the mouse, the keyboard, or touch selection handles (their
 * drags only fire `selectionchange`, which is followed too; the highlight re-renders without losing the selection).
 */
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { Context, TaskConfig } from "../api/types";
import { fieldName } from "../tasks/config";
import { trimSpan } from "./spans";
import { ANNOTATE_TEXT as T } from "./text";

interface Props {
  config: TaskConfig;
  context: Context;
  passageField: string | null;
  span: { start: number; end: number } | null;
  onSelectSpan?: (span: { start: number; end: number }) => void;
  actions?: ComponentChildren; // e.g. "New context", shown beside the first field's title
}

export function ContextPanel({ config, context, passageField, span, onSelectSpan, actions }: Props) {
  return (
    <section class="card context" aria-labelledby="context-title">
      <h2 id="context-title" class="visually-hidden">{T.contextTitle}</h2>
      {config.context_fields.map((spec, i) => {
        const text = String(context.fields[spec.name] ?? "");
        const label = fieldName(config, spec);
        return (
          <div class="context-field" key={spec.name}>
            <div class="context-head">
              <h3 class="field-title" id={`context-${spec.name}-title`}>{label}</h3>
              {i === 0 && context.tag && <span class="hint context-tag" dir="auto">{T.contextTag(context.tag)}</span>}
              {i === 0 && actions}
            </div>
            {spec.name === passageField && onSelectSpan ? (
              <Passage text={text} span={span} labelledBy={`context-${spec.name}-title`} onSelectSpan={onSelectSpan} />
            ) : (
              <p class="context-text" dir="auto" data-field={spec.name}>{text}</p>
            )}
          </div>
        );
      })}
      {config.context_fields.length === 0 && actions}
      {config.context_fields.length === 0 && context.tag && <p class="hint" dir="auto">{T.contextTag(context.tag)}</p>}
    </section>
  );
}

/** Character offset of (node, offset) within `root`'s text. */
function offsetIn(root: Node, node: Node, offset: number): number {
  const range = document.createRange();
  range.selectNodeContents(root);
  range.setEnd(node, offset);
  return range.toString().length;
}

/** The DOM position of character `offset` within `root`'s text nodes. */
function positionAt(root: Node, offset: number): [Node, number] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let left = offset;
  let last: Node | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.textContent?.length ?? 0;
    if (left <= length) return [node, left];
    left -= length;
    last = node;
  }
  return last ? [last, last.textContent?.length ?? 0] : [root, 0];
}

function Passage({ text, span, labelledBy, onSelectSpan }: {
  text: string;
  span: { start: number; end: number } | null;
  labelledBy: string;
  onSelectSpan: (span: { start: number; end: number }) => void;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  const latest = useRef({ span, onSelectSpan });
  latest.current = { span, onSelectSpan };
  // The live selection (anchor and focus as character offsets) while it is inside the passage.
  const live = useRef<{ anchor: number; focus: number } | null>(null);

  function readSelection() {
    const element = ref.current;
    const selection = window.getSelection();
    if (!element || !selection || selection.rangeCount === 0 || selection.isCollapsed) {
      live.current = null;
      return;
    }
    const range = selection.getRangeAt(0);
    if (!element.contains(range.startContainer) || !element.contains(range.endContainer)) {
      live.current = null;
      return;
    }
    const { anchorNode, focusNode } = selection;
    if (anchorNode && focusNode) {
      live.current = {
        anchor: offsetIn(element, anchorNode, selection.anchorOffset),
        focus: offsetIn(element, focusNode, selection.focusOffset),
      };
    }
    const start = offsetIn(element, range.startContainer, range.startOffset);
    const trimmed = trimSpan(text, start, start + range.toString().length);
    const current = latest.current.span;
    if (trimmed && (!current || current.start !== trimmed.start || current.end !== trimmed.end)) {
      latest.current.onSelectSpan(trimmed);
    }
  }

  // Touch selection handles (and any other way of changing the selection) only fire `selectionchange`.
  useEffect(() => {
    const onChange = () => readSelection();
    document.addEventListener("selectionchange", onChange);
    return () => document.removeEventListener("selectionchange", onChange);
  }, [text]);

  // The highlight re-rendered the passage's text nodes: put the live selection back where it was.
  useLayoutEffect(() => {
    const element = ref.current;
    const selection = window.getSelection();
    const at = live.current;
    if (!element || !selection || !at) return;
    const [anchorNode, anchorOffset] = positionAt(element, at.anchor);
    const [focusNode, focusOffset] = positionAt(element, at.focus);
    if (
      selection.anchorNode === anchorNode && selection.anchorOffset === anchorOffset &&
      selection.focusNode === focusNode && selection.focusOffset === focusOffset
    ) return;
    selection.setBaseAndExtent(anchorNode, anchorOffset, focusNode, focusOffset);
  }, [span?.start, span?.end]);

  const valid = span && span.end <= text.length;
  return (
    <p
      ref={ref}
      class="context-text passage"
      dir="auto"
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
