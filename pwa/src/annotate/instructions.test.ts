import { describe, expect, it } from "vitest";
import { ANNOTATE_TEXT as T } from "./text";
import { acknowledge, fingerprint, mustRead, type KeyValue } from "./instructions";

function memory(): KeyValue & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe("task instructions before the first example", () => {
  it("shows them until read, per user and task", () => {
    const store = memory();
    const html = "<p>Write <strong>hard</strong> examples.</p>";
    expect(mustRead(store, "ada", "sentiment", html)).toBe(true);
    acknowledge(store, "ada", "sentiment", html);
    expect(mustRead(store, "ada", "sentiment", html)).toBe(false);
    expect(mustRead(store, "bob", "sentiment", html)).toBe(true);
    expect(mustRead(store, "ada", "nli", html)).toBe(true);
  });

  it("shows them again once they change, and never when there are none", () => {
    const store = memory();
    acknowledge(store, "ada", "sentiment", "<p>v1</p>");
    expect(mustRead(store, "ada", "sentiment", "<p>v2</p>")).toBe(true);
    expect(mustRead(store, "ada", "sentiment", "")).toBe(false);
    expect(mustRead(store, "ada", "sentiment", undefined)).toBe(false);
    expect(fingerprint("<p>v1</p>")).not.toBe(fingerprint("<p>v2</p>"));
  });

  it("shows them every time when storage refuses", () => {
    const broken: KeyValue = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    acknowledge(broken, "ada", "sentiment", "<p>x</p>");
    expect(mustRead(broken, "ada", "sentiment", "<p>x</p>")).toBe(true);
    expect(mustRead(null, "ada", "sentiment", "<p>x</p>")).toBe(true);
  });

  it("translates its strings in the UI locale, falling back to English", async () => {
    const { activateCatalog } = await import("../i18n/runtime");
    const { default: fr } = await import("../i18n/locales/fr");
    activateCatalog("fr", fr);
    expect(T.instructionsStart).toBe("Commencer");
    activateCatalog("en", null);
    expect(T.instructionsStart).toBe("Start writing");
    expect(T.instructionsHeading).toBe("Instructions");
  });
});
