import { describe, expect, it } from "vitest";
import { statusNote } from "./status";

describe("statusNote", () => {
  it("says nothing for public tasks or a cached task without a status", () => {
    expect(statusNote("PUBLIC")).toBeNull();
    expect(statusNote(undefined)).toBeNull();
  });
  it("explains who sees a proposal and what archiving means", () => {
    expect(statusNote("PROPOSED")?.badge).toBe("Proposal");
    expect(statusNote("PROPOSED")?.hint).toContain("approval");
    expect(statusNote("ARCHIVED")?.hint).toContain("Read-only");
  });
});
