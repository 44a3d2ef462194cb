import { describe, expect, it } from "vitest";
import { linkToken, passwordProblem } from "./recovery";

const TOKEN = "0123456789abcdef.AbC-_xyz";

describe("linkToken", () => {
  it("reads the token of the page's query", () => {
    expect(linkToken(new URLSearchParams(`token=${TOKEN}`))).toBe(TOKEN);
  });
  it("takes a pasted token or a whole pasted link first", () => {
    expect(linkToken(new URLSearchParams(""), ` ${TOKEN} `)).toBe(TOKEN);
    expect(linkToken(new URLSearchParams("token=x"), `https://dyna.example/#/reset-password?token=${TOKEN}`)).toBe(TOKEN);
  });
  it("refuses anything else", () => {
    for (const junk of ["", "nope", "0123456789abcdef.", "0123456789ABCDEF.x", `${TOKEN} extra`]) {
      expect(linkToken(new URLSearchParams(""), junk)).toBeNull();
    }
  });
});

describe("passwordProblem", () => {
  it("asks for 8–256 characters, typed twice alike", () => {
    expect(passwordProblem("short", "short")).toBe("length");
    expect(passwordProblem("x".repeat(257), "x".repeat(257))).toBe("length");
    expect(passwordProblem("long enough", "long enough!")).toBe("mismatch");
    expect(passwordProblem("long enough", "long enough")).toBeNull();
  });
});
