/**
 * A translated sentence with elements inside it: "Your vote {vote} on: {summary}" with `vote` a <strong>. Each
 * language orders the words its own way; the elements go where its text puts the {name}s (no concatenation).
 */
import type { ComponentChild } from "preact";

export function slot(text: string, values: Record<string, ComponentChild>): ComponentChild[] {
  return text.split(/\{(\w+)\}/).map((part, i) => (i % 2 === 1 ? (values[part] ?? `{${part}}`) : part));
}
