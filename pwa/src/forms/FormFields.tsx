/**
 * A list of annotation form fields, each through the component registry (fields.tsx): its label (or legend),
 * the control, help text and the error next to it (aria-describedby, aria-invalid). Used by the annotate page
 * (input fields, the follow-up after a verdict), the validate page (validator fields) and the task creation
 * form's live preview. `focusField` moves focus to a field (the first invalid one on submit).
 */
import { fieldTitle, humanize, type FieldSpec } from "./specs";
import { FIELD_COMPONENTS, GROUP_TYPES } from "./fields";
import { FORM_TEXT } from "./text";
import "./forms.css";

export interface FormFieldsProps {
  fields: FieldSpec[];
  values: Record<string, unknown>;
  onChange(name: string, value: unknown): void;
  /** Problems by field name, shown next to the field. */
  errors?: Record<string, string>;
  /** The context texts by field name (span fields select in them). */
  contexts?: Record<string, string>;
  /** The context fields' display names by field name (named in span fields' hints). */
  contextTitles?: Record<string, string>;
  disabled?: boolean;
  /** Prefix of the controls' ids (default "field-"): the control of field `name` is `${idPrefix}${name}`. */
  idPrefix?: string;
}

export type { FieldSpec } from "./specs";
export { parseFieldSpecs } from "./specs";

export const DEFAULT_ID_PREFIX = "field-";

export function FormFields(props: FormFieldsProps) {
  const { fields, values, onChange, errors = {}, contexts = {}, contextTitles = {}, disabled = false, idPrefix = DEFAULT_ID_PREFIX } = props;
  return (
    <>
      {fields.map((spec) => (
        <FieldBlock
          key={spec.name}
          spec={spec}
          value={values[spec.name]}
          error={errors[spec.name]}
          contexts={contexts}
          contextTitles={contextTitles}
          disabled={disabled}
          id={`${idPrefix}${spec.name}`}
          onChange={(value) => onChange(spec.name, value)}
        />
      ))}
    </>
  );
}

/** Focus the control of field `name` (rendered with `idPrefix`); true when found. */
export function focusField(name: string, idPrefix = DEFAULT_ID_PREFIX): boolean {
  const element = document.getElementById(`${idPrefix}${name}`);
  element?.focus();
  return element !== null;
}

function hintOf(spec: FieldSpec, contextTitles: Record<string, string>): string {
  if (spec.type === "multi_label" && (spec.minSelected > 0 || spec.maxSelected !== null)) {
    return FORM_TEXT.selectionLimits(spec.minSelected, spec.maxSelected);
  }
  if (spec.type === "span" && spec.spanOf) return FORM_TEXT.spanHint(contextTitles[spec.spanOf] ?? humanize(spec.spanOf));
  return "";
}

function FieldBlock({ spec, value, error, contexts, contextTitles, disabled, id, onChange }: {
  spec: FieldSpec;
  value: unknown;
  error: string | undefined;
  contexts: Record<string, string>;
  contextTitles: Record<string, string>;
  disabled: boolean;
  id: string;
  onChange: (value: unknown) => void;
}) {
  const Component = FIELD_COMPONENTS[spec.type];
  const hint = hintOf(spec, contextTitles);
  const helpId = spec.help ? `${id}-help` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [helpId, hintId, errorId].filter(Boolean).join(" ") || undefined;
  const title = (
    <>
      {fieldTitle(spec)}
      {!spec.required && <span class="optional"> ({FORM_TEXT.optional})</span>}
    </>
  );
  const body = (
    <>
      <Component
        spec={spec}
        value={value}
        onChange={onChange}
        id={id}
        describedBy={describedBy}
        invalid={Boolean(error)}
        disabled={disabled}
        contexts={contexts}
      />
      {hint && <p class="hint" id={hintId}>{hint}</p>}
      {spec.help && <p class="hint field-help" id={helpId}>{spec.help}</p>}
      {error && <p class="field-error" id={errorId}>{error}</p>}
    </>
  );
  const data = { "data-field": spec.name, "data-type": spec.type };
  if (GROUP_TYPES.has(spec.type)) {
    return (
      <fieldset class="field form-field" {...data} aria-describedby={describedBy}>
        <legend>{title}</legend>
        {body}
      </fieldset>
    );
  }
  if (spec.type === "boolean") {
    // The checkbox's own label names it; help and error follow.
    return <div class="form-field" {...data}>{body}</div>;
  }
  return (
    <div class="field form-field" {...data}>
      <label for={id}>{title}</label>
      {body}
    </div>
  );
}
