/**
 * What the verdict panel shows, from either a fresh submission (its `predictions`) or a stored
 * example (its `modelOutput`, e.g. when the outbox got `duplicate: true` and no predictions back).
 * Pure functions.
 */
import type { Example, ExampleSubmitted, FoolingClaimed, LabelProbability, ModelPrediction, Verdict } from "../api/types";
import { ANNOTATE_TEXT } from "./text";

export interface ModelAnswer {
  modelName: string;
  label: string | null;
  probabilities: LabelProbability[];
  answer: string | null;
  confidence: number | null;
}

export interface VerdictView {
  verdict: Verdict;
  message: string;
  duplicate: boolean;
  sandbox: boolean;
  exampleId: string | null;
  intended: string | null; // the annotator's label or answer
  answers: ModelAnswer[];
  retracted: boolean;
  flagged: boolean;
  explanation: string;
  summary?: string; // the example's inputs → intended answer (absent in views saved by older versions)
  assisted?: { kind: string; edited: boolean } | null; // written from a suggestion (absent in older views)
}

export function fromPredictions(predictions: ModelPrediction[]): ModelAnswer[] {
  return predictions.map((p) => ({
    modelName: p.modelName,
    label: p.label,
    probabilities: orderProbabilities(p.probabilities ?? []),
    answer: p.answer,
    confidence: p.confidence,
  }));
}

function probsFrom(value: unknown): LabelProbability[] {
  if (!value || typeof value !== "object") return [];
  if (Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, p]) => typeof p === "number")
    .map(([label, p]) => ({ label, probability: p as number }));
}

/** The stored model output document: {label, probs: {label: p}, answer, start, end, confidence, by_model?}. */
export function fromModelOutput(modelName: string, output: Record<string, unknown> | null): ModelAnswer[] {
  if (!output) return [];
  const one = (name: string, o: Record<string, unknown>): ModelAnswer => ({
    modelName: name,
    label: typeof o.label === "string" ? o.label : null,
    probabilities: orderProbabilities(probsFrom(o.probs)),
    answer: typeof o.answer === "string" ? o.answer : null,
    confidence: typeof o.confidence === "number" ? o.confidence : null,
  });
  if (Array.isArray(output.by_model)) {
    return (output.by_model as Record<string, unknown>[]).map((o) => one(String(o.model ?? modelName), o));
  }
  return [one(modelName, output)];
}

/** Highest probability first; ties keep the model's order. */
export function orderProbabilities(probabilities: LabelProbability[]): LabelProbability[] {
  return probabilities
    .map((p, i) => ({ p, i }))
    .sort((a, b) => b.p.probability - a.p.probability || a.i - b.i)
    .map(({ p }) => p);
}

/** The example in one line: its input fields, then → the intended label or answer. */
export function summaryOfExample(example: Pick<Example, "input">): string {
  const text = Object.entries(example.input)
    .filter(([key, value]) => !["label", "answer", "answer_start"].includes(key) && typeof value === "string")
    .map(([, value]) => value as string)
    .join(" · ");
  const intended = intendedOf(example);
  return intended ? `${text} → ${intended}` : text;
}

export function intendedOf(example: Pick<Example, "input"> | null): string | null {
  if (!example) return null;
  const { label, answer } = example.input as { label?: unknown; answer?: unknown };
  if (typeof label === "string") return label;
  if (typeof answer === "string") return answer;
  return null;
}

export function viewOfSubmission(result: ExampleSubmitted, sandbox = false, intended: string | null = null): VerdictView {
  const example = result.example;
  const answers = result.predictions.length
    ? fromPredictions(result.predictions)
    : example
      ? fromModelOutput(example.modelName, example.modelOutput)
      : [];
  return {
    verdict: result.verdict,
    message: result.message,
    duplicate: result.duplicate,
    sandbox,
    exampleId: example?.id ?? null,
    intended: intendedOf(example) ?? intended,
    answers,
    retracted: example?.retracted ?? false,
    flagged: example?.flagged ?? false,
    explanation: example?.explanation ?? "",
    summary: example ? summaryOfExample(example) : undefined,
    assisted: example?.assistance ?? null,
  };
}

export function viewOfExample(example: Example, message = ""): VerdictView {
  return {
    verdict: example.verdict,
    message: message || defaultMessage(example),
    duplicate: false,
    sandbox: false,
    exampleId: example.id,
    intended: intendedOf(example),
    answers: fromModelOutput(example.modelName, example.modelOutput),
    retracted: example.retracted,
    flagged: example.flagged,
    explanation: example.explanation,
    summary: summaryOfExample(example),
    assisted: example.assistance ?? null,
  };
}

export function defaultMessage(example: Pick<Example, "verdict" | "pendingReason">): string {
  if (example.verdict === "AWAITING_CLAIM") return ANNOTATE_TEXT.messageAwaitingClaim;
  if (example.verdict === "FOOLED") return ANNOTATE_TEXT.messageFooled;
  if (example.verdict === "NOT_FOOLED") return ANNOTATE_TEXT.messageNotFooled;
  return ANNOTATE_TEXT.messagePending;
}

/** The verdict's word for a badge, in the UI locale (a getter table: reads the active catalog each time). */
export const VERDICT_TEXT: Record<Verdict, string> = new Proxy({} as Record<Verdict, string>, {
  get: (_target, key) => ANNOTATE_TEXT.verdicts[key as Verdict],
});

/** The view once the author's claim ("Did the model get it wrong?") is stored: the claim is the verdict. */
export function viewAfterClaim(view: VerdictView, claimed: FoolingClaimed): VerdictView {
  return {
    ...view,
    verdict: claimed.verdict,
    message: claimed.message,
    retracted: claimed.example.retracted,
    flagged: claimed.example.flagged,
  };
}
