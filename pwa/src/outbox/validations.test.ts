import { describe, expect, it } from "vitest";
import type { ValidateExampleResult } from "../api/types";
import { newOutboxItem, nextBatch, pendingCount, sendable, type OutboxItem } from "./outbox";
import { afterVote, classifyVote, newValidationItem, voteKey, votedExampleIds, VOTE_KEYS } from "./validations";

const meta = { username: "val", taskCode: "sentiment", taskName: "Sentiment" };

function vote(exampleId: string, createdAt: number, extra: Partial<ReturnType<typeof newValidationItem>> = {}) {
  return {
    ...newValidationItem({ exampleId, label: "CORRECT", mode: "USER", note: "  fine  ", roundId: "R1", summary: "text → positive" }, meta, createdAt),
    ...extra,
  };
}

const validated: ValidateExampleResult = {
  __typename: "ExampleValidated",
  validation: { label: "CORRECT", mode: "USER", note: "" },
  example: { id: "E1", status: "open" },
};

describe("newValidationItem", () => {
  it("keys the vote by user and example, so one example gets one vote from this device", () => {
    const item = vote("E1", 1);
    expect(item.kind).toBe("validation");
    expect(item.clientId).toBe(voteKey("val", "E1"));
    expect(vote("E1", 2).clientId).toBe(item.clientId);
    expect(item.note).toBe("fine");
    expect(item.state).toBe("pending");
    expect(item.fields).toEqual({});
  });

  it("carries the validator fields of the vote", () => {
    const item = newValidationItem(
      { exampleId: "E2", label: "INCORRECT", mode: "USER", fields: { corrected_label: "negative" }, roundId: "R1", summary: "s" },
      meta,
      3,
    );
    expect(item.fields).toEqual({ corrected_label: "negative" });
  });

  it("maps keys 1, 2, 3 to Correct, Incorrect, Flagged", () => {
    expect(VOTE_KEYS).toEqual({ "1": "CORRECT", "2": "INCORRECT", "3": "FLAGGED" });
  });
});

describe("classifyVote", () => {
  it("treats an 'already validated' conflict after a lost reply as done, other conflicts as refused", () => {
    expect(classifyVote(validated)).toBe("done");
    // By its code, whatever the language of the message.
    expect(classifyVote({ __typename: "ConflictError", code: "ALREADY_VALIDATED", message: "Ya validaste este ejemplo." })).toBe("done");
    expect(classifyVote({ __typename: "ConflictError", code: "CONFLICT", message: "This example is already validated." })).toBe("refused");
    expect(classifyVote({ __typename: "ConflictError", code: "CONFLICT", message: "This example was retracted by its author." })).toBe("refused");
    expect(classifyVote({ __typename: "PermissionError", code: "FORBIDDEN", message: "You cannot validate your own example." })).toBe("refused");
    expect(classifyVote({ __typename: "NotFoundError", code: "NOT_FOUND", message: "gone" })).toBe("refused");
    expect(classifyVote({ __typename: "AuthenticationError", code: "AUTHENTICATION_REQUIRED", message: "m" })).toBe("signIn");
    expect(classifyVote(null)).toBe("retry");
  });
});

describe("afterVote", () => {
  it("removes a done vote, marks a refused one failed with the message, keeps a retry pending", () => {
    expect(afterVote(vote("E1", 1), validated)).toEqual({ outcome: "done", item: null });
    const refused = afterVote(vote("E1", 1), { __typename: "PermissionError", code: "FORBIDDEN", message: "Only owners." });
    expect(refused.outcome).toBe("refused");
    expect(refused.item).toMatchObject({ state: "failed", failure: { code: "FORBIDDEN", message: "Only owners.", fields: [] } });
    const retry = afterVote(vote("E1", 1), null);
    expect(retry.outcome).toBe("retry");
    expect(retry.item).toMatchObject({ state: "pending", lastError: "No answer for this vote." });
  });
});

describe("votes in the shared outbox", () => {
  const example = newOutboxItem({ clientId: "x", roundId: "R1", contextId: "C1", fields: { statement: "s" }, label: "positive" }, meta, 2);
  const items: OutboxItem[] = [vote("E2", 3), example, vote("E1", 1), vote("E3", 0, { state: "failed" }), vote("E4", 0, { username: "other" })];

  it("are never sent as examples, but are sendable oldest first and counted as waiting", () => {
    expect(nextBatch(items, "val", new Set()).map((i) => i.clientId)).toEqual(["x"]);
    expect(sendable(items, "val", new Set([voteKey("val", "E2")])).map((i) => i.clientId)).toEqual([voteKey("val", "E1"), "x"]);
    expect(pendingCount(items, "val")).toBe(3);
  });

  it("hide the voted examples (pending or failed) of this validator from the queue", () => {
    expect([...votedExampleIds(items, "val")].sort()).toEqual(["E1", "E2", "E3"]);
  });
});
