import { describe, expect, it } from "vitest";
import { appendPage, auditFilters, errorLine, isForbidden, reasonProblem, replaceById, REASON_MAX, userFilters, when } from "./logic";

describe("admin logic", () => {
  it("checks reasons", () => {
    expect(reasonProblem("  ", true)).toBe("missing");
    expect(reasonProblem("", false)).toBeNull();
    expect(reasonProblem("Spam.", true)).toBeNull();
    expect(reasonProblem("x".repeat(REASON_MAX + 1), false)).toBe("long");
    expect(reasonProblem(` ${"x".repeat(REASON_MAX)} `, true)).toBeNull();
  });

  it("turns filters into variables", () => {
    expect(userFilters("  ann ", "", "")).toEqual({ search: "ann", role: null, disabled: null });
    expect(userFilters("", "ADMIN", "disabled")).toEqual({ search: null, role: "ADMIN", disabled: true });
    expect(userFilters("", "USER", "active")).toEqual({ search: null, role: "USER", disabled: false });
    expect(auditFilters("", " ")).toEqual({ action: null, actor: null });
    expect(auditFilters("MODEL_TAKEN_DOWN", "root")).toEqual({ action: "MODEL_TAKEN_DOWN", actor: "root" });
  });

  it("grows and updates lists", () => {
    const page = { edges: [{ node: { id: "b" } }], pageInfo: { hasNextPage: false, endCursor: null } };
    expect(appendPage(null, page)).toEqual([{ id: "b" }]);
    expect(appendPage([{ id: "a" }], page)).toEqual([{ id: "a" }, { id: "b" }]);
    expect(replaceById([{ id: "a", n: 1 }, { id: "b", n: 1 }], { id: "b", n: 2 })).toEqual([{ id: "a", n: 1 }, { id: "b", n: 2 }]);
  });

  it("describes errors and refusals", () => {
    expect(errorLine({ __typename: "ConflictError", code: "CONFLICT", message: "Last admin." })).toBe("Last admin.");
    expect(
      errorLine({ __typename: "InputError", code: "INVALID_INPUT", message: "Bad.", fields: [{ field: "reason", message: "is required" }] }),
    ).toBe("Bad. (reason: is required)");
    expect(isForbidden(["FORBIDDEN"])).toBe(true);
    expect(isForbidden(["AUTHENTICATION_FAILED"])).toBe(false);
    expect(isForbidden(undefined)).toBe(false);
  });

  it("formats times", () => {
    expect(when(null)).toBe("");
    expect(when("not a date")).toBe("not a date");
    expect(when("2026-12-22T10:00:00+00:00", "en-GB")).toMatch(/2026/);
  });
});
