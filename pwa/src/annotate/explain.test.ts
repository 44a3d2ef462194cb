import { describe, expect, it } from "vitest";
import { segments, signedPercent, topTokens, type TokenAttribution } from "./explain";

const tok = (text: string, start: number, attribution: number): TokenAttribution => ({
  field: "statement",
  text,
  start,
  end: start + Array.from(text).length,
  attribution,
});

describe("segments", () => {
  it("cuts the text at the pieces, keeping what lies between", () => {
    const text = "not bad at all";
    const tokens = [tok("not", 0, 0.4), tok("bad", 4, -0.2), tok("at", 8, 0), tok("all", 11, 0.1)];
    const out = segments(text, tokens);
    expect(out.map((s) => s.text).join("")).toBe(text);
    expect(out.filter((s) => s.token).map((s) => [s.text, s.strength])).toEqual([
      ["not", 1],
      ["bad", 0.5],
      ["at", 0],
      ["all", 0.25],
    ]);
  });

  it("counts offsets in code points, as the server does", () => {
    const text = "😀 great";
    const out = segments(text, [tok("great", 2, 0.3)]);
    expect(out.map((s) => s.text)).toEqual(["😀 ", "great"]);
  });

  it("survives pieces out of range or unordered", () => {
    const out = segments("abc", [tok("c", 2, 0.1), { ...tok("x", 5, 0.2), end: 9 }, tok("a", 0, 0.1)]);
    expect(out.map((s) => s.text).join("")).toBe("abc");
  });
});

describe("topTokens", () => {
  it("orders by strength either way and drops the pieces that did nothing", () => {
    const tokens = [tok("a", 0, 0.1), tok("b", 2, -0.3), tok("c", 4, 0.001), tok("d", 6, 0.3)];
    expect(topTokens(tokens, 3).map((t) => t.text)).toEqual(["b", "d", "a"]);
  });
});

it("signedPercent shows the direction", () => {
  expect(signedPercent(0.125)).toBe("+12.5%");
  expect(signedPercent(-0.03)).toBe("−3.0%");
});
