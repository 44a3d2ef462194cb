import { describe, expect, it } from "vitest";
import { matchPattern, parse } from "./router";

describe("router", () => {
  it("matches patterns with parameters", () => {
    expect(matchPattern("/tasks/:code", "/tasks/nli")).toEqual({ code: "nli" });
    expect(matchPattern("/tasks/:code", "/tasks/a%20b")).toEqual({ code: "a b" });
    expect(matchPattern("/", "/")).toEqual({});
    expect(matchPattern("/tasks/:code", "/tasks")).toBeNull();
    expect(matchPattern("/outbox", "/examples")).toBeNull();
  });

  it("splits the query", () => {
    const { path, query } = parse("/login?next=%2Ftasks%2Fnli");
    expect(path).toBe("/login");
    expect(query.get("next")).toBe("/tasks/nli");
  });
});
