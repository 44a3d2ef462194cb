import { describe, expect, it } from "vitest";
import { currentFor, sectionOf, tabLayout, visibleItems } from "./nav";

describe("tabLayout", () => {
  it("gives annotators their three tabs and the rest under More", () => {
    expect(tabLayout({ isAdmin: false, ownsTasks: false })).toEqual({
      tabs: ["tasks", "validate", "examples"],
      more: ["outbox", "models", "leaderboard", "owner"],
    });
  });
  it("gives owners a tab for their tasks", () => {
    expect(tabLayout({ isAdmin: false, ownsTasks: true })).toEqual({
      tabs: ["tasks", "validate", "examples", "owner"],
      more: ["outbox", "models", "leaderboard"],
    });
  });
  it("gives admins a tab for the admin pages and keeps their own tasks under More", () => {
    expect(tabLayout({ isAdmin: true, ownsTasks: true })).toEqual({
      tabs: ["tasks", "validate", "examples", "admin"],
      more: ["outbox", "models", "leaderboard", "owner"],
    });
  });
  it("never shows the admin pages to others", () => {
    expect(visibleItems({ isAdmin: false, ownsTasks: true }).map((i) => i.key)).not.toContain("admin");
  });
});

describe("sectionOf and currentFor", () => {
  it.each([
    ["/", "tasks"],
    ["/tasks/nli", "tasks"],
    ["/validate/sentiment", "validate"],
    ["/examples", "examples"],
    ["/owner/qa/browse", "owner"],
    ["/new-task", "owner"],
    ["/admin/audit", "admin"],
    ["/leaderboard/qa", "leaderboard"],
    ["/account", null],
    ["/inbox", null],
    ["/tasksx", null],
  ])("%s belongs to %s", (path, key) => {
    expect(sectionOf(path)).toBe(key);
  });
  it("marks the section's own page and its sub-pages", () => {
    expect(currentFor("validate", "/validate")).toBe("page");
    expect(currentFor("validate", "/validate/nli")).toBe("true");
    expect(currentFor("tasks", "/validate")).toBeUndefined();
  });
});
