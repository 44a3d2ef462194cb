import { describe, expect, it } from "vitest";
import { formatBytes, percent, sentAll } from "./progress";

describe("upload progress", () => {
  it("is a whole percentage, clamped, and 0 while the total is unknown", () => {
    expect(percent({ sent: 0, total: 200 })).toBe(0);
    expect(percent({ sent: 99, total: 200 })).toBe(49);
    expect(percent({ sent: 199, total: 200 })).toBe(99); // never 100 before the last byte
    expect(percent({ sent: 200, total: 200 })).toBe(100);
    expect(percent({ sent: 300, total: 200 })).toBe(100);
    expect(percent({ sent: 50, total: 0 })).toBe(0);
  });

  it("knows when every byte is sent", () => {
    expect(sentAll({ sent: 10, total: 10 })).toBe(true);
    expect(sentAll({ sent: 9, total: 10 })).toBe(false);
    expect(sentAll({ sent: 0, total: 0 })).toBe(false);
  });

  it("formats bytes with decimal units in the given locale", () => {
    expect(formatBytes(812, "en")).toBe("812 byte");
    expect(formatBytes(3_400_000, "en")).toBe("3.4 MB");
    expect(formatBytes(1_250_000_000, "en")).toBe("1.3 GB");
    expect(formatBytes(1_500, "fr")).toMatch(/^1,5\s?ko$/);
  });
});
