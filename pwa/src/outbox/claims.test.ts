import { describe, expect, it } from "vitest";
import type { ClaimFooledResult, FoolingClaimed } from "../api/types";
import { defaultMessage, VERDICT_TEXT, viewAfterClaim, viewOfExample, viewOfSubmission } from "../annotate/verdict";
import { asksAnnotator } from "../tasks/config";
import { afterClaim, claimKey, claimWaiting, classifyClaim, newClaimItem } from "./claims";
import { newOutboxItem, nextBatch, sendable, type OutboxItem } from "./outbox";

const meta = { username: "ann", taskCode: "freeqa", taskName: "Free QA" };

function claim(exampleId: string, modelWasWrong = true, createdAt = 1) {
  return newClaimItem({ exampleId, modelWasWrong, roundId: "R1", summary: "Where? → Warsaw" }, meta, createdAt, `uuid-${exampleId}-${createdAt}`);
}

const example: FoolingClaimed["example"] = {
  id: "E1", clientId: "C1", input: { question: "Where was she born?", answer: "Warsaw", answer_start: 24 },
  modelOutput: { answer: "Paris", start: 50, end: 55, confidence: 0.4 }, modelName: "qa", modelVersion: "1",
  fooled: null, verdict: "AWAITING_CLAIM", status: "awaiting_claim", retracted: false, flagged: false, flagReason: "",
  explanation: "", pendingReason: "", createdAt: "2026-11-26T09:00:00Z", claimedFooled: null, assistance: null,
};

const claimed: FoolingClaimed = {
  __typename: "FoolingClaimed", verdict: "FOOLED", duplicate: false,
  message: "You say the model got it wrong: it counts as fooling it once validators confirm.",
  example: { ...example, fooled: true, verdict: "FOOLED", status: "open", claimedFooled: true },
};

describe("claims in the outbox", () => {
  it("keys a claim by user and example, with its own client UUID for claimFooled", () => {
    const item = claim("E1");
    expect(item).toMatchObject({ kind: "claim", clientId: claimKey("ann", "E1"), claimId: "uuid-E1-1", modelWasWrong: true, state: "pending" });
    expect(claim("E1", false, 2).clientId).toBe(item.clientId); // answering again replaces it on this device
  });

  it("never sends a claim as an example, and sends it after older items", () => {
    const input = { roundId: "R1", contextId: "X1", fields: { question: "Q" }, answer: "A", clientId: "C9" };
    const items: OutboxItem[] = [claim("E1", true, 5), newOutboxItem(input, meta, 7)];
    expect(nextBatch(items, "ann", new Set()).map((i) => i.clientId)).toEqual(["C9"]);
    expect(sendable(items, "ann", new Set()).map((i) => i.kind ?? "example")).toEqual(["claim", "example"]);
    expect(sendable(items, "someone else", new Set())).toEqual([]);
  });

  it("is done once the claim is stored, also when the answer is the stored one after a lost reply", () => {
    expect(classifyClaim(claimed)).toBe("done");
    expect(classifyClaim({ ...claimed, duplicate: true })).toBe("done");
    expect(afterClaim(claim("E1"), claimed)).toEqual({ outcome: "done", item: null });
  });

  it("keeps refused claims with the server's message, and retries transient failures", () => {
    const conflict: ClaimFooledResult = {
      __typename: "ConflictError", code: "CONFLICT", message: "You have already said whether the model got this example wrong.",
    };
    const refused = afterClaim(claim("E1"), conflict);
    expect(refused.outcome).toBe("refused");
    expect(refused.item).toMatchObject({ state: "failed", failure: { code: "CONFLICT", message: conflict.message, fields: [] } });
    expect(classifyClaim({ __typename: "AuthenticationError", code: "AUTHENTICATION_REQUIRED", message: "Log in." })).toBe("signIn");
    expect(classifyClaim(null)).toBe("retry");
    expect(afterClaim(claim("E1"), { __typename: "RateLimitedError", code: "RATE_LIMITED", message: "Slow down." }).item)
      .toMatchObject({ state: "pending", lastError: "Slow down." });
  });

  it("finds the claim waiting on an example", () => {
    const items: OutboxItem[] = [claim("E1"), claim("E2")];
    expect(claimWaiting(items, "ann", "E2")?.exampleId).toBe("E2");
    expect(claimWaiting(items, "ann", "E3")).toBeUndefined();
    expect(claimWaiting(items, "bob", "E1")).toBeUndefined();
  });
});

describe("the verdict of an ask_user example", () => {
  it("asks the annotator after showing the model's answer", () => {
    const view = viewOfExample(example);
    expect(view.verdict).toBe("AWAITING_CLAIM");
    expect(view.message).toBe("Here is the model's answer. Did the model get it wrong?");
    expect(defaultMessage(example)).toBe(view.message);
    expect(VERDICT_TEXT.AWAITING_CLAIM).toBe("Your call");
    expect(view.answers[0].answer).toBe("Paris");
    expect(view.summary).toBe("Where was she born? → Warsaw");
  });

  it("shows the stored claim as the verdict", () => {
    const submitted = viewOfSubmission({
      __typename: "ExampleSubmitted", verdict: "AWAITING_CLAIM", message: "m", duplicate: false, example, predictions: [],
    });
    const after = viewAfterClaim(submitted, claimed);
    expect(after).toMatchObject({ verdict: "FOOLED", message: claimed.message, exampleId: "E1", intended: "Warsaw" });
    expect(after.answers).toEqual(submitted.answers);
  });

  it("knows which tasks ask the annotator", () => {
    const config = { kind: "extractive_qa" as const, context_fields: [], input_fields: [] };
    expect(asksAnnotator({ ...config, fooling: { metric: "ask_user" } })).toBe(true);
    expect(asksAnnotator({ ...config, fooling: { metric: "string_f1" } })).toBe(false);
    expect(asksAnnotator(config)).toBe(false);
  });
});
