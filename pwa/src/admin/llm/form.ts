/**
 * The LLM endpoint form's pure logic: the form's values as text, checked before a request (the server names the rest
 * of what it refuses), turned into registerLlmEndpoint's or updateLlmEndpoint's input. The key is write-only: the form
 * starts empty and, for a stored key, sends nothing (keep), a new key (replace) or "" (clear).
 */
import type { FieldError } from "../../api/types";
import { ADMIN_TEXT } from "../text";
import type { EndpointSettings, LlmEndpoint, RegisterInput, UpdateInput } from "./documents";

export type KeyChoice = "keep" | "replace" | "clear";

export interface EndpointForm {
  name: string;
  baseUrl: string;
  model: string;
  apiKey: string;
  keyChoice: KeyChoice;
  timeoutS: string;
  maxConcurrency: string;
  tokensPerUserPerDay: string;
  tokensPerTaskPerDay: string;
  pricePer1kPromptTokens: string;
  pricePer1kCompletionTokens: string;
  enabled: boolean;
}

export const NAME_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/; // server/generation/endpoints/rules.py NAME
const NUMBERS = ["timeoutS", "maxConcurrency", "tokensPerUserPerDay", "tokensPerTaskPerDay", "pricePer1kPromptTokens", "pricePer1kCompletionTokens"] as const;
const WHOLE = new Set<string>(["maxConcurrency", "tokensPerUserPerDay", "tokensPerTaskPerDay"]);

export const emptyForm = (): EndpointForm => ({
  name: "",
  baseUrl: "",
  model: "",
  apiKey: "",
  keyChoice: "replace",
  timeoutS: "30",
  maxConcurrency: "4",
  tokensPerUserPerDay: "0",
  tokensPerTaskPerDay: "0",
  pricePer1kPromptTokens: "0",
  pricePer1kCompletionTokens: "0",
  enabled: true,
});

/** The form for changing `endpoint`: its settings, an empty key field, the stored key kept. */
export function formOf(endpoint: LlmEndpoint): EndpointForm {
  return {
    name: endpoint.name,
    baseUrl: endpoint.baseUrl,
    model: endpoint.model,
    apiKey: "",
    keyChoice: endpoint.hasKey ? "keep" : "replace",
    timeoutS: String(endpoint.timeoutS),
    maxConcurrency: String(endpoint.maxConcurrency),
    tokensPerUserPerDay: String(endpoint.tokensPerUserPerDay),
    tokensPerTaskPerDay: String(endpoint.tokensPerTaskPerDay),
    pricePer1kPromptTokens: String(endpoint.pricePer1kPromptTokens),
    pricePer1kCompletionTokens: String(endpoint.pricePer1kCompletionTokens),
    enabled: endpoint.enabled,
  };
}

/** The id of a field's control and of its error line. */
export const controlId = (field: string) => `llm-${field.replace(/[^A-Za-z0-9_-]/g, "-")}`;
export const errorId = (field: string) => `${controlId(field)}-error`;

/** What the form can tell before asking the server, in the order of its fields. */
export function checkForm(form: EndpointForm, editing: boolean): FieldError[] {
  const p = ADMIN_TEXT.llm.problems;
  const problems: FieldError[] = [];
  if (!editing && !NAME_PATTERN.test(form.name.trim())) problems.push({ field: "name", message: p.name });
  const url = form.baseUrl.trim();
  if (!url) problems.push({ field: "baseUrl", message: p.required });
  else if (!/^https?:\/\/[^\s/]+/i.test(url)) problems.push({ field: "baseUrl", message: p.url });
  if (!form.model.trim()) problems.push({ field: "model", message: p.required });
  if (form.keyChoice === "replace" && /\s/.test(form.apiKey.trim())) problems.push({ field: "apiKey", message: p.keySpaces });
  for (const field of NUMBERS) {
    const value = Number(form[field].trim());
    if (!form[field].trim() || !Number.isFinite(value) || value < 0 || (WHOLE.has(field) && !Number.isInteger(value))) {
      problems.push({ field, message: WHOLE.has(field) ? p.wholeNumber : p.number });
    }
  }
  return problems;
}

function settings(form: EndpointForm): EndpointSettings {
  return {
    baseUrl: form.baseUrl.trim(),
    model: form.model.trim(),
    timeoutS: Number(form.timeoutS),
    maxConcurrency: Number(form.maxConcurrency),
    tokensPerUserPerDay: Number(form.tokensPerUserPerDay),
    tokensPerTaskPerDay: Number(form.tokensPerTaskPerDay),
    pricePer1kPromptTokens: Number(form.pricePer1kPromptTokens),
    pricePer1kCompletionTokens: Number(form.pricePer1kCompletionTokens),
    enabled: form.enabled,
  };
}

export function registerInput(form: EndpointForm): RegisterInput {
  return { name: form.name.trim(), apiKey: form.keyChoice === "replace" ? form.apiKey.trim() : "", ...settings(form) };
}

/** Only what changed (and the key as chosen): an untouched form changes nothing, the key included. */
export function updateInput(form: EndpointForm, original: LlmEndpoint): UpdateInput {
  const input: UpdateInput = { name: original.name };
  const next = settings(form);
  for (const key of Object.keys(next) as (keyof EndpointSettings)[]) {
    if (next[key] !== original[key]) (input as Record<string, unknown>)[key] = next[key];
  }
  if (form.keyChoice === "clear" && original.hasKey) input.apiKey = "";
  if (form.keyChoice === "replace" && form.apiKey.trim()) input.apiKey = form.apiKey.trim();
  return input;
}

/** Whether an update input changes anything. */
export const changesAnything = (input: UpdateInput) => Object.keys(input).length > 1;
