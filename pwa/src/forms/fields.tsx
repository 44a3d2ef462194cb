/**
 * The component registry: one input component per field `type`. Each gets the field's spec, its value, the
 * ids to describe it by (help, error) and reports a new value; FormFields.tsx wraps them with label and error.
 * Groups (single_label, multi_label, rating) are a fieldset + legend; the rest a label + one control.
 */
import type { ComponentType } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { trimSpan } from "../annotate/spans";
import { fieldTitle, ratingValues, type FieldSpec, type FieldType } from "./specs";
import { FORM_TEXT } from "./text";
import { isSpan, textLength } from "./values";

export interface FieldProps {
  spec: FieldSpec;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The control's id (a group's first input); the label and focus-on-error use it. */
  id: string;
  /** Ids of the help text and error, for aria-describedby. */
  describedBy: string | undefined;
  invalid: boolean;
  disabled: boolean;
  contexts: Record<string, string>;
}

/** Whether the component is a group of inputs (fieldset + legend) rather than one labelled control. */
export const GROUP_TYPES: ReadonlySet<FieldType> = new Set(["single_label", "multi_label", "rating"]);

const invalidAttr = (invalid: boolean): "true" | undefined => (invalid ? "true" : undefined);

function TextField({ spec, value, onChange, id, describedBy, invalid, disabled }: FieldProps) {
  const text = typeof value === "string" ? value : "";
  const countId = `${id}-count`;
  const common = {
    id,
    name: spec.name,
    value: text,
    maxLength: spec.maxLength,
    placeholder: spec.placeholder || undefined,
    required: spec.required,
    disabled,
    dir: "auto" as const, // what people type may be in any script: its direction follows the text
    "aria-invalid": invalidAttr(invalid),
    "aria-describedby": [describedBy, countId].filter(Boolean).join(" "),
    onInput: (event: Event) => onChange((event.target as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <>
      {spec.type === "multiline_text" ? <AutoGrow {...common} /> : spec.legacy ? <textarea rows={3} {...common} /> : <input type="text" {...common} />}
      <p class="hint counter" id={countId}>{FORM_TEXT.characters(textLength(text), spec.maxLength)}</p>
    </>
  );
}

/** A textarea that grows with its text (no inner scrolling on a phone). */
function AutoGrow(props: Record<string, unknown> & { value: string }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${element.scrollHeight + 2}px`;
  }, [props.value]);
  return <textarea ref={ref} rows={3} class="auto-grow" {...props} />;
}

function ChoiceGroup({ spec, value, onChange, id, invalid, disabled }: FieldProps) {
  const multi = spec.type === "multi_label";
  const selected = multi ? (Array.isArray(value) ? (value as string[]) : []) : [];
  return (
    <div class="choice-row">
      {spec.choices.map((choice, i) => (
        <label class="choice" key={choice.value}>
          <input
            id={i === 0 ? id : undefined}
            type={multi ? "checkbox" : "radio"}
            name={spec.name}
            value={choice.value}
            disabled={disabled}
            aria-invalid={invalidAttr(invalid)}
            checked={multi ? selected.includes(choice.value) : value === choice.value}
            onChange={(event) => {
              if (!multi) return onChange(choice.value);
              const on = (event.target as HTMLInputElement).checked;
              const rest = selected.filter((v) => v !== choice.value);
              // Keep the choices' order.
              const next = on ? spec.choices.map((c) => c.value).filter((v) => v === choice.value || rest.includes(v)) : rest;
              onChange(next);
            }}
          />
          <span>{choice.label}</span>
        </label>
      ))}
    </div>
  );
}

function RatingField({ spec, value, onChange, id, invalid, disabled }: FieldProps) {
  return (
    <div class="choice-row rating">
      {ratingValues(spec).map((n) => (
        <label class="choice" key={n}>
          <input
            id={n === 1 ? id : undefined}
            type="radio"
            name={spec.name}
            value={String(n)}
            disabled={disabled}
            aria-invalid={invalidAttr(invalid)}
            aria-label={FORM_TEXT.ratingOf(n, spec.scale)}
            checked={value === n}
            onChange={() => onChange(n)}
          />
          <span aria-hidden="true">{n}</span>
        </label>
      ))}
    </div>
  );
}

function NumberField({ spec, value, onChange, id, describedBy, invalid, disabled }: FieldProps) {
  const shown = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  const read = (event: Event) => {
    const raw = (event.target as HTMLInputElement).value;
    const n = Number(raw);
    onChange(raw.trim() === "" ? undefined : Number.isFinite(n) ? n : raw);
  };
  const common = {
    id,
    name: spec.name,
    min: spec.min ?? undefined,
    max: spec.max ?? undefined,
    step: spec.step,
    disabled,
    "aria-invalid": invalidAttr(invalid),
  };
  if (spec.widget === "slider" && spec.min !== null && spec.max !== null) {
    const outputId = `${id}-value`;
    const set = typeof value === "number";
    return (
      <div class="slider">
        <input
          type="range"
          {...common}
          value={set ? shown : String(spec.min)}
          data-unset={set ? undefined : "true"}
          aria-describedby={[outputId, describedBy].filter(Boolean).join(" ")}
          onInput={read}
          onChange={read}
        />
        <div class="slider-scale">
          <span aria-hidden="true">{FORM_TEXT.rangeMin(spec.min)}</span>
          <output id={outputId} for={id} aria-live="polite">{set ? shown : "—"}</output>
          <span aria-hidden="true">{FORM_TEXT.rangeMax(spec.max)}</span>
        </div>
      </div>
    );
  }
  return (
    <input
      type="number"
      inputMode="decimal"
      {...common}
      value={shown}
      placeholder={spec.placeholder || undefined}
      aria-describedby={describedBy}
      onInput={read}
    />
  );
}

function DropdownField({ spec, value, onChange, id, describedBy, invalid, disabled }: FieldProps) {
  return (
    <select
      id={id}
      name={spec.name}
      disabled={disabled}
      aria-invalid={invalidAttr(invalid)}
      aria-describedby={describedBy}
      value={typeof value === "string" ? value : ""}
      onChange={(event) => {
        const v = (event.target as HTMLSelectElement).value;
        onChange(v === "" ? undefined : v);
      }}
    >
      <option value="">{FORM_TEXT.selectPrompt}</option>
      {spec.choices.map((choice) => (
        <option value={choice.value} key={choice.value}>{choice.label}</option>
      ))}
    </select>
  );
}

function BooleanField({ spec, value, onChange, id, describedBy, invalid, disabled }: FieldProps) {
  return (
    <div class="field checkbox boolean">
      <input
        id={id}
        type="checkbox"
        name={spec.name}
        disabled={disabled}
        aria-invalid={invalidAttr(invalid)}
        aria-describedby={describedBy}
        checked={value === true}
        onChange={(event) => onChange((event.target as HTMLInputElement).checked)}
      />
      <label for={id}>{fieldTitle(spec)}</label>
    </div>
  );
}

/**
 * A span of the `span_of` context text: select it in the text shown here (mouse or finger), or type it
 * exactly into the box (the keyboard way). The value: {start, end} UTF-16 offsets, or the typed text while
 * it is not found in the text.
 */
function SpanField({ spec, value, onChange, id, describedBy, invalid, disabled, contexts }: FieldProps) {
  const ref = useRef<HTMLParagraphElement>(null);
  const text = spec.spanOf !== null ? contexts[spec.spanOf] : undefined;
  const span = isSpan(value) && text !== undefined && value.end <= text.length ? value : null;
  const typed = span && text !== undefined ? text.slice(span.start, span.end) : typeof value === "string" ? value : "";
  const passageId = `${id}-text`;

  function readSelection() {
    const element = ref.current;
    const selection = window.getSelection();
    if (disabled || !element || text === undefined || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
    const range = selection.getRangeAt(0);
    if (!element.contains(range.startContainer) || !element.contains(range.endContainer)) return;
    const before = document.createRange();
    before.selectNodeContents(element);
    before.setEnd(range.startContainer, range.startOffset);
    const start = before.toString().length;
    const trimmed = trimSpan(text, start, start + range.toString().length);
    if (trimmed) onChange(trimmed);
  }

  if (text === undefined) return <p class="hint">{FORM_TEXT.spanNoContext}</p>;
  return (
    <>
      <p
        ref={ref}
        id={passageId}
        class="context-text passage span-source"
        data-span-of={spec.spanOf ?? ""}
        onMouseUp={readSelection}
        onTouchEnd={readSelection}
        onKeyUp={readSelection}
      >
        {span ? (
          <>
            {text.slice(0, span.start)}
            <mark class="answer-span">{text.slice(span.start, span.end)}</mark>
            {text.slice(span.end)}
          </>
        ) : text}
      </p>
      <input
        id={id}
        name={spec.name}
        value={typed}
        dir="auto"
        disabled={disabled}
        aria-invalid={invalidAttr(invalid)}
        aria-describedby={describedBy}
        onInput={(event) => {
          const raw = (event.target as HTMLInputElement).value;
          const index = raw.trim() ? text.indexOf(raw) : -1;
          onChange(index >= 0 ? { start: index, end: index + raw.length } : raw === "" ? undefined : raw);
        }}
      />
    </>
  );
}

export const FIELD_COMPONENTS: Record<FieldType, ComponentType<FieldProps>> = {
  text: TextField,
  multiline_text: TextField,
  single_label: ChoiceGroup,
  multi_label: ChoiceGroup,
  number: NumberField,
  dropdown: DropdownField,
  rating: RatingField,
  boolean: BooleanField,
  span: SpanField,
};
