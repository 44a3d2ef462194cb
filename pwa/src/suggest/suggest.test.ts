import { describe, expect, it } from "vitest";
import type { TaskConfig } from "../api/types";
import { anyOffered, offeredSuggestions } from "./offered";
import { candidateText, percent, seconds, sides } from "./suggest";

const classifier = (suggestions?: unknown): TaskConfig => ({
  kind: "classification",
  context_fields: [{ name: "context" }],
  input_fields: [{ name: "note" }, { name: "statement" }],
  model_inputs: ["context", "statement"],
  labels: ["negative", "positive"],
  ...(suggestions === undefined ? {} : { suggestions }),
} as unknown as TaskConfig);

describe("what a task offers", () => {
  it("reads the config's block and the field a suggestion fills", () => {
    expect(offeredSuggestions(classifier())).toEqual({ generator: false, perturbation: false, field: "statement" });
    const both = offeredSuggestions(classifier({ generator: { model: "m" }, perturbation: true }));
    expect(both).toEqual({ generator: true, perturbation: true, field: "statement" });
    expect(anyOffered(both)).toBe(true);
    expect(anyOffered(offeredSuggestions(classifier()))).toBe(false);
  });
  it("offers a generative task an opening message, never the perturbation search", () => {
    const chat = { kind: "generative", context_fields: [], input_fields: [], suggestions: { generator: { model: "m" }, perturbation: true } };
    expect(offeredSuggestions(chat as unknown as TaskConfig)).toEqual({ generator: true, perturbation: false, field: "message" });
  });
});

describe("formatting", () => {
  it("candidates, percents, seconds and both sides", () => {
    const s = { id: "1", kind: "GENERATOR" as const, source: "m", fields: { statement: "Hi." }, label: null, target: null };
    expect(candidateText(s, "statement")).toBe("Hi.");
    expect(candidateText(s, "other")).toBe("");
    expect(percent(0.4321)).toBe("43%");
    expect(percent(1.7)).toBe("100%");
    expect(seconds(30_000)).toBe("30.0");
    expect(seconds(null)).toBeNull();
    const [unassisted, assisted] = sides([{ assisted: true, collected: 2, fooled: 1, validatedFooled: 0, foolingRate: 0.5, validatedFoolingRate: 0, medianMsToFool: 1000, edited: 1 }]);
    expect(unassisted.collected).toBe(0);
    expect(assisted.foolingRate).toBe(0.5);
  });
});
