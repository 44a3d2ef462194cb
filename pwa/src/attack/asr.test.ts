import { afterEach, describe, expect, it } from "vitest";
import { activateCatalog } from "../i18n/runtime";
import { attackLine, attackTables, type AttackSuccessRow } from "./asr";

const row = (grouping: string, key: string, collected: number, fooled: number, validatedFooled: number): AttackSuccessRow => ({
  grouping, key, collected, fooled, validatedFooled,
  asr: collected ? fooled / collected : null,
  validatedAsr: collected ? validatedFooled / collected : null,
});

afterEach(() => activateCatalog("en", null));

describe("attack success tables", () => {
  it("splits targets from categories, names categories through the helper and sorts each list by name", () => {
    const rows = [
      row("target", "llama_small", 4, 3, 1),
      row("target", "chat_demo", 2, 2, 2),
      row("category", "role_play", 3, 2, 1),
      row("category", "jailbreak", 1, 1, 0),
      row("other", "ignored", 1, 1, 1),
    ];
    const tables = attackTables(rows, (key) => key.replace("_", " ").toUpperCase());
    expect(tables.targets.map((l) => l.key)).toEqual(["chat_demo", "llama_small"]);
    expect(tables.targets[0]).toEqual({ key: "chat_demo", name: "chat_demo", collected: "2", fooled: "2", asr: "100.0%", validatedAsr: "100.0%" });
    expect(tables.targets[1]).toMatchObject({ asr: "75.0%", validatedAsr: "25.0%" });
    expect(tables.categories.map((l) => [l.key, l.name])).toEqual([["jailbreak", "JAILBREAK"], ["role_play", "ROLE PLAY"]]);
    expect(tables.categories[1]).toMatchObject({ collected: "3", fooled: "2", asr: "66.7%", validatedAsr: "33.3%" });
  });

  it("shows a dash for a rate that is not defined yet", () => {
    expect(attackLine(row("target", "m", 0, 0, 0), "m")).toMatchObject({ collected: "0", asr: "—", validatedAsr: "—" });
  });

  it("formats numbers and percentages in the UI locale", () => {
    activateCatalog("fr", {});
    const line = attackLine({ ...row("target", "m", 1200, 300, 150) }, "m");
    expect(line.collected).toBe("1\u202f200");
    expect(line.asr).toBe("25,0\u00a0%");
    activateCatalog("ar", {});
    expect(attackLine(row("target", "m", 2, 1, 0), "m").asr).toMatch(/50|٥٠/);
  });

  it("is empty for a round with no rows (a round that is not generative)", () => {
    expect(attackTables([], (k) => k)).toEqual({ targets: [], categories: [] });
  });
});
