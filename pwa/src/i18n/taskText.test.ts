import { afterEach, describe, expect, it } from "vitest";
import { activateCatalog } from "./runtime";
import { localizeTask, translationFor } from "./taskText";

const TASK = {
  name: "Sentiment",
  instructions: "Write a sentence.",
  config: {
    translations: {
      es: { name: "Sentimiento", labels: { negative: "negativo" } },
      ar: { name: "المشاعر", instructions: "اكتب جملة.", fields: { statement: "العبارة" } },
      "pt-BR": { name: "Sentimento" },
    },
  },
};

afterEach(() => activateCatalog("en", null));

describe("task content in the UI locale", () => {
  it("uses the locale's overrides and falls back for the rest", () => {
    const es = localizeTask(TASK, "es");
    expect(es.name).toBe("Sentimiento");
    expect(es.instructions).toBe("Write a sentence.");
    expect(es.label("negative")).toBe("negativo");
    expect(es.label("positive", "Positive")).toBe("Positive");
    expect(es.field("statement", "Statement")).toBe("Statement");
    const ar = localizeTask(TASK, "ar");
    expect([ar.name, ar.instructions, ar.field("statement")]).toEqual(["المشاعر", "اكتب جملة.", "العبارة"]);
  });

  it("leaves a task without translations, or a locale without one, as written", () => {
    const fr = localizeTask(TASK, "fr");
    expect([fr.name, fr.instructions, fr.label("negative")]).toEqual(["Sentiment", "Write a sentence.", "negative"]);
    const plain = localizeTask({ name: "Plain", config: null }, "es");
    expect([plain.name, plain.instructions]).toEqual(["Plain", null]);
  });

  it("matches a regional tag by language and reads the active locale by default", () => {
    expect(translationFor(TASK.config.translations, "pt")?.name).toBe("Sentimento");
    expect(translationFor(null, "es")).toBeNull();
    activateCatalog("es", null);
    expect(localizeTask(TASK).name).toBe("Sentimiento");
  });
});
