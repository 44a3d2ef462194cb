import { describe, expect, it } from "vitest";
import type { QueueExample } from "../api/types";
import { applyQueueUpdate, claimOf, emptyQueue, exampleSummary, heldVotes, intendedAnswer, modelAnswer, newlyAdded, removedHeld, shownWaiting, unconfirmedAfter, visibleQueue, wantsRefill } from "./queue";

function ex(id: string, createdAt: string, input: Record<string, unknown> = { statement: `s${id}`, label: "positive" }): QueueExample {
  return {
    id, clientId: id, input, modelOutput: { label: "negative", probs: { negative: 0.8, positive: 0.2 } }, modelName: "m", modelVersion: "1",
    fooled: true, verdict: "FOOLED", status: "open", retracted: false, flagged: false, flagReason: "", explanation: "", pendingReason: "",
    createdAt, claimedFooled: null, context: { id: "C", fields: { prompt: "p" } },
  };
}

describe("applyQueueUpdate", () => {
  it("replaces the queue on reset, merges additions and removals otherwise", () => {
    const a = ex("a", "2025-01-01"), b = ex("b", "2025-01-02"), c = ex("c", "2025-01-03");
    let queue = applyQueueUpdate([ex("old", "2024")], { added: [a, b], removedIds: [], reset: true });
    expect(queue.map((e) => e.id)).toEqual(["a", "b"]);
    queue = applyQueueUpdate(queue, { added: [c], removedIds: ["a"], reset: false });
    expect(queue.map((e) => e.id)).toEqual(["b", "c"]);
    // A repeated addition replaces the copy held, never duplicates it.
    queue = applyQueueUpdate(queue, { added: [{ ...c, status: "open", explanation: "new" }], removedIds: [], reset: false });
    expect(queue.map((e) => e.id)).toEqual(["b", "c"]);
    expect(queue[1].explanation).toBe("new");
    expect(applyQueueUpdate(queue, { added: [], removedIds: ["b", "c", "zzz"], reset: false })).toEqual([]);
  });
});

describe("visibleQueue", () => {
  it("orders oldest first and hides examples already voted on", () => {
    const queue = [ex("b", "2025-01-02"), ex("a", "2025-01-01"), ex("c", "2025-01-03")];
    expect(visibleQueue(queue, new Set(["a"])).map((e) => e.id)).toEqual(["b", "c"]);
  });
});

describe("answers", () => {
  it("reads the intended label / answer and the model's label / answer", () => {
    const e = ex("a", "x");
    expect(intendedAnswer(e)).toBe("positive");
    expect(modelAnswer(e)).toBe("negative");
    expect(modelAnswer({ modelOutput: { answer: "Paris", start: 3 } })).toBe("Paris");
    expect(modelAnswer({ modelOutput: null })).toBeNull();
    expect(intendedAnswer({ input: { question: "q", answer: "Paris", answer_start: 3 } })).toBe("Paris");
    expect(exampleSummary({ input: { question: "Where?", answer: "Paris", answer_start: 3 } })).toBe("Where? → Paris");
  });
});

describe("the waiting count and the refill", () => {
  it("counts only examples new to the queue; a reset brings its own count", () => {
    const a = ex("a", "1"), b = ex("b", "2");
    expect(newlyAdded([a], { added: [a, b], removedIds: [], reset: false })).toBe(1);
    expect(newlyAdded([a], { added: [b, b], removedIds: [], reset: false })).toBe(1);
    expect(newlyAdded([a], { added: [b], removedIds: ["b"], reset: false })).toBe(0);
    expect(newlyAdded([], { added: [a, b], removedIds: [], reset: true })).toBe(0);
  });

  it("shows the server's count less the votes still on this device, never fewer than shown", () => {
    expect(shownWaiting(null, 0, 3)).toBeNull();
    expect(shownWaiting({ count: 30, capped: false }, 2, 18)).toEqual({ count: 28, capped: false });
    expect(shownWaiting({ count: 3, capped: false }, 0, 5)).toEqual({ count: 5, capped: false });
    expect(shownWaiting({ count: 10000, capped: true }, 1, 20)).toEqual({ count: 9999, capped: true });
  });

  it("refills when fewer than five are shown while the server has more", () => {
    expect(wantsRefill(4, { count: 10, capped: false })).toBe(true);
    expect(wantsRefill(0, { count: 1, capped: false })).toBe(true);
    expect(wantsRefill(5, { count: 10, capped: false })).toBe(false);
    expect(wantsRefill(3, { count: 3, capped: false })).toBe(false);
    expect(wantsRefill(0, { count: 0, capped: false })).toBe(false);
    expect(wantsRefill(0, null)).toBe(false);
  });
});

describe("emptyQueue", () => {
  it("says none wait only when the count is zero", () => {
    expect(emptyQueue(null, true, false)).toBe("empty");
    expect(emptyQueue({ count: 0, capped: false }, true, true)).toBe("empty");
    expect(emptyQueue({ count: 6, capped: false }, true, false)).toBe("loading");
    expect(emptyQueue({ count: 6, capped: false }, false, false)).toBe("offline");
    expect(emptyQueue({ count: 6, capped: false }, true, true)).toBe("held");
  });
});

describe("heldVotes", () => {
  it("counts this user's votes of the round on this device, sent or refused, whose examples are still queued", () => {
    const items = [
      { kind: "validation", username: "ann", roundId: "r1", exampleId: "1", state: "pending" },
      { kind: "validation", username: "ann", roundId: "r1", exampleId: "2", state: "failed" },
      { kind: "validation", username: "ann", roundId: "r1", exampleId: "3", state: "pending" }, // removal came first
      { kind: "validation", username: "ann", roundId: "r2", exampleId: "1", state: "pending" },
      { kind: "validation", username: "bob", roundId: "r1", exampleId: "1", state: "pending" },
      { kind: "example", username: "ann", roundId: "r1", exampleId: "1", state: "pending" },
    ];
    expect(heldVotes(items, "ann", "r1", new Set(["1", "2", "4"]))).toBe(2);
  });
});

describe("the count through a vote, whichever of the removal and the vote's answer arrives first", () => {
  // 6 wait; the validator votes on example "a". The count shown must go 6 -> 5 and stay there.
  const queue = [ex("a", "2026-01-01T00:00:01Z"), ex("b", "2026-01-01T00:00:02Z")];
  const vote = [{ kind: "validation", username: "ann", roundId: "r1", exampleId: "a" }];
  const shown = (waiting: number, held: typeof vote, q: QueueExample[]) =>
    shownWaiting({ count: waiting, capped: false }, heldVotes(held, "ann", "r1", new Set(q.map((e) => e.id))), 1)?.count;

  it("removal first: the count drops with the removal, the held vote is no longer subtracted", () => {
    expect(shown(6, vote, queue)).toBe(5); // just voted
    const removal = { added: [], removedIds: ["a"], reset: false };
    const after = applyQueueUpdate(queue, removal);
    expect(removedHeld(queue, removal)).toBe(1);
    expect(shown(6 - 1, vote, after)).toBe(5); // removal arrived, the vote not yet answered
    expect(shown(5, [], after)).toBe(5); // the vote's answer
  });

  it("answer first: the example leaves the queue and the count drops once", () => {
    const after = queue.filter((e) => e.id !== "a");
    expect(shown(6 - 1, [], after)).toBe(5);
    expect(removedHeld(after, { added: [], removedIds: ["a"], reset: false })).toBe(0); // the late removal: no drop
  });
});

describe("conversations (generative tasks)", () => {
  const conversation = ex("9", "2026-01-01T00:00:09Z", {
    messages: [{ role: "system", content: "Be nice." }, { role: "user", content: "Insult me." }, { role: "assistant", content: "No." }],
    categories: ["insult"],
  });

  it("are summed up by the author's last message", () => {
    expect(exampleSummary(conversation)).toBe("Insult me.");
  });

  it("are checked against the author's claim (ask_user), else the judge's verdict", () => {
    expect(claimOf({ claimedFooled: true, fooled: null }, true)).toBe("failed");
    expect(claimOf({ claimedFooled: false, fooled: null }, true)).toBe("held");
    expect(claimOf({ claimedFooled: null, fooled: false }, false)).toBe("held");
    expect(claimOf({ fooled: true }, false)).toBe("failed");
  });
});

describe("unconfirmedAfter", () => {
  it("takes away the votes this update removes and keeps the rest (a count in it may predate those)", () => {
    const stored = new Set(["x", "y"]);
    expect([...unconfirmedAfter(stored, { removedIds: ["x"] })]).toEqual(["y"]);
    expect(unconfirmedAfter(stored, { removedIds: ["x", "y", "z"] }).size).toBe(0);
    expect([...stored]).toEqual(["x", "y"]); // the set passed in is left as it was
  });
});
