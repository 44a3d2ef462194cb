// The LLM endpoint form's pure logic: what it refuses before a request, and the inputs it sends (the key write-only).
import { describe, expect, it } from "vitest";
import type { LlmEndpoint } from "./documents";
import { changesAnything, checkForm, emptyForm, formOf, registerInput, updateInput } from "./form";

const stored: LlmEndpoint = {
  name: "gpt",
  baseUrl: "https://llm.example.org/v1",
  model: "acme/chat",
  hasKey: true,
  timeoutS: 30,
  maxConcurrency: 4,
  tokensPerUserPerDay: 0,
  tokensPerTaskPerDay: 5000,
  pricePer1kPromptTokens: 0.25,
  pricePer1kCompletionTokens: 1,
  enabled: true,
};

describe("the LLM endpoint form", () => {
  it("names every field it can tell is wrong, in the form's order", () => {
    const form = { ...emptyForm(), name: "Bad Name", baseUrl: "llm.example.org", maxConcurrency: "1.5", pricePer1kPromptTokens: "-1" };
    expect(checkForm(form, false).map((p) => p.field)).toEqual(["name", "baseUrl", "model", "maxConcurrency", "pricePer1kPromptTokens"]);
    expect(checkForm({ ...form, name: "" }, true).map((p) => p.field)).not.toContain("name"); // the name is not edited
    expect(checkForm({ ...emptyForm(), name: "gpt", baseUrl: "http://127.0.0.1:8000/v1", model: "m", apiKey: "sk x" }, false))
      .toEqual([{ field: "apiKey", message: expect.any(String) }]);
  });

  it("registers with every setting and the key as typed (trimmed)", () => {
    const form = { ...emptyForm(), name: " gpt ", baseUrl: " https://h/v1 ", model: "m", apiKey: " sk-1 ", tokensPerUserPerDay: "100" };
    expect(registerInput(form)).toEqual({
      name: "gpt",
      apiKey: "sk-1",
      baseUrl: "https://h/v1",
      model: "m",
      timeoutS: 30,
      maxConcurrency: 4,
      tokensPerUserPerDay: 100,
      tokensPerTaskPerDay: 0,
      pricePer1kPromptTokens: 0,
      pricePer1kCompletionTokens: 0,
      enabled: true,
    });
  });

  it("changes only what changed and keeps, replaces or clears the stored key", () => {
    const untouched = formOf(stored);
    expect(untouched.apiKey).toBe("");
    expect(untouched.keyChoice).toBe("keep");
    expect(updateInput(untouched, stored)).toEqual({ name: "gpt" });
    expect(changesAnything(updateInput(untouched, stored))).toBe(false);
    expect(updateInput({ ...untouched, maxConcurrency: "8", enabled: false }, stored)).toEqual({ name: "gpt", maxConcurrency: 8, enabled: false });
    expect(updateInput({ ...untouched, keyChoice: "replace", apiKey: "sk-new" }, stored)).toEqual({ name: "gpt", apiKey: "sk-new" });
    expect(updateInput({ ...untouched, keyChoice: "replace", apiKey: "  " }, stored)).toEqual({ name: "gpt" }); // empty: nothing sent
    expect(updateInput({ ...untouched, keyChoice: "clear" }, stored)).toEqual({ name: "gpt", apiKey: "" });
    const keyless = formOf({ ...stored, hasKey: false });
    expect(keyless.keyChoice).toBe("replace");
    expect(updateInput({ ...keyless, keyChoice: "clear" }, { ...stored, hasKey: false })).toEqual({ name: "gpt" });
  });
});
