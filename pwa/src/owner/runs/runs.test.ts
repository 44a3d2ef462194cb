import { describe, expect, it } from "vitest";
import type { AdversaryRun } from "./documents";
import { isActive, parseCount, share, shouldPoll } from "./runs";

const run = (status: AdversaryRun["status"]): AdversaryRun => ({
  id: "r", status, requested: 5, produced: 2, fooled: 1, validated: 0, validatedFooled: 0, awaitingValidation: 1, refused: 0,
  generator: "g", error: "", startedBy: "o", createdAt: "2026-11-28T00:00:00Z", finishedAt: null,
});

describe("adversary runs panel", () => {
  it("takes a whole count from 1 to 200", () => {
    expect(parseCount("25")).toBe(25);
    expect(parseCount(" 200 ")).toBe(200);
    for (const bad of ["0", "201", "-3", "2.5", "", "ten"]) expect(parseCount(bad)).toBeNull();
  });
  it("polls while a run is queued or running", () => {
    expect(isActive(run("QUEUED")) && isActive(run("RUNNING"))).toBe(true);
    expect(shouldPoll([run("DONE"), run("FAILED"), run("CANCELLED")])).toBe(false);
    expect(shouldPoll([run("DONE"), run("RUNNING")])).toBe(true);
    expect(shouldPoll(null)).toBe(false);
  });
  it("gives shares of the produced examples", () => {
    expect(share(1, 3)).toBe("33%");
    expect(share(0, 0)).toBe("—");
  });
});
