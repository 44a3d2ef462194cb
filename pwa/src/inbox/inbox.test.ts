import { describe, expect, it } from "vitest";
import type { Notification } from "./documents";
import { markRead, merge, newest, numberOf } from "./inbox";

const n = (id: number, read = false): Notification => ({
  id: btoa(`Notification:${id}`), kind: "BADGE_EARNED", title: `t${id}`, body: "", link: "/", createdAt: "", read,
});

describe("inbox", () => {
  it("merges newest first, once each", () => {
    expect(merge([n(3), n(1)], [n(2), n(3, true), n(10)]).map((x) => numberOf(x.id))).toEqual([10, 3, 2, 1]);
    expect(merge([n(3)], [n(3, true)])[0].read).toBe(true);
  });
  it("marks some or all read", () => {
    expect(markRead([n(1), n(2)], [n(2).id]).map((x) => x.read)).toEqual([false, true]);
    expect(markRead([n(1), n(2)], "all").every((x) => x.read)).toBe(true);
  });
  it("knows the newest id", () => {
    expect(newest([])).toBeNull();
    expect(newest([n(2), n(9), n(4)])).toBe(n(9).id);
    expect(numberOf("not base64!")).toBe(0);
  });
});
