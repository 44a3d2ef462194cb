import { describe, expect, it } from "vitest";
import { statusText } from "./status";

describe("statusText", () => {
  it("shows retracted and flagged examples as such, never as open", () => {
    expect(statusText({ status: "open", retracted: true, flagged: false })).toBe("Retracted");
    expect(statusText({ status: "open", retracted: false, flagged: true })).toBe("Flagged");
    expect(statusText({ status: "open", retracted: true, flagged: true })).toBe("Retracted");
    expect(statusText({ status: "open", retracted: false, flagged: false })).toBe("Open");
    expect(statusText({ status: "awaiting_claim", retracted: false, flagged: false })).toBe("Awaiting claim");
  });
});
