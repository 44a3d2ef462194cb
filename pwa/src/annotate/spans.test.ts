import { describe, expect, it } from "vitest";
import { apiAnswer, toCodePointOffset, trimSpan } from "./spans";

describe("answer spans", () => {
  it("converts UTF-16 offsets to code points", () => {
    const text = "😀 Paris is nice";
    expect(text.indexOf("Paris")).toBe(3);
    expect(toCodePointOffset(text, 3)).toBe(2);
    expect(apiAnswer(text, { start: 3, end: 8 })).toEqual({ answer: "Paris", answerStart: 2 });
    expect(toCodePointOffset("plain", 3)).toBe(3);
  });

  it("trims whitespace and orders the ends", () => {
    expect(trimSpan("  the cat  ", 0, 11)).toEqual({ start: 2, end: 9 });
    expect(trimSpan("abc", 3, 1)).toEqual({ start: 1, end: 3 });
    expect(trimSpan("   ", 0, 3)).toBeNull();
  });
});
