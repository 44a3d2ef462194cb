import { describe, expect, it } from "vitest";
import type { CreateExampleResult, ExampleSubmitted } from "../api/types";
import {
  BACKOFF_MAX_MS, backoffDelay, classifyResult, newOutboxItem, nextBatch, pendingCount, planBatch, type ExampleOutboxItem,
} from "./outbox";

const meta = { username: "ann", taskCode: "sentiment", taskName: "Sentiment" };

function item(clientId: string, createdAt: number, extra: Partial<ExampleOutboxItem> = {}): ExampleOutboxItem {
  return {
    ...newOutboxItem(
      { clientId, roundId: "R1", contextId: "C1", fields: { statement: `text ${clientId}` }, label: "positive", sandbox: false },
      meta,
      createdAt,
    ),
    ...extra,
  };
}

function submitted(overrides: Partial<ExampleSubmitted> = {}): ExampleSubmitted {
  return {
    __typename: "ExampleSubmitted",
    verdict: "FOOLED",
    message: "You fooled the model!",
    duplicate: false,
    example: {
      id: "E1", clientId: "a", input: { statement: "x", label: "positive" },
      modelOutput: { label: "negative", probs: { negative: 0.7, positive: 0.2, neutral: 0.1 } },
      modelName: "sentiment_minilm", modelVersion: "1", fooled: true, verdict: "FOOLED", status: "open",
      retracted: false, flagged: false, flagReason: "", explanation: "", pendingReason: "", createdAt: "2025-01-01T00:00:00Z",
      claimedFooled: null, assistance: null,
    },
    predictions: [],
    ...overrides,
  };
}

describe("newOutboxItem", () => {
  it("never keeps the sandbox flag and always carries the client id", () => {
    const it1 = item("a", 1);
    expect(it1.input.sandbox).toBeUndefined();
    expect(it1.input.clientId).toBe("a");
    expect(it1.state).toBe("pending");
  });
});

describe("nextBatch", () => {
  it("takes the user's pending items oldest first, skipping in-flight and failed ones", () => {
    const items = [
      item("c", 3),
      item("a", 1),
      item("b", 2, { state: "failed" }),
      item("d", 4, { username: "bob" }),
      item("e", 5),
    ];
    expect(nextBatch(items, "ann", new Set(["e"])).map((i) => i.clientId)).toEqual(["a", "c"]);
    expect(nextBatch(items, "ann", new Set(), 1).map((i) => i.clientId)).toEqual(["a"]);
    expect(nextBatch(items, "bob", new Set()).map((i) => i.clientId)).toEqual(["d"]);
  });
});

describe("classifyResult", () => {
  it("tells delivered, refused, retry and sign-in apart", () => {
    expect(classifyResult(submitted())).toBe("delivered");
    expect(classifyResult(submitted({ duplicate: true }))).toBe("delivered");
    expect(classifyResult({ __typename: "InputError", code: "X", message: "m", fields: [] })).toBe("refused");
    for (const t of ["NotFoundError", "ConflictError", "RoundClosedError", "PermissionError"] as const) {
      expect(classifyResult({ __typename: t, code: "X", message: "m" })).toBe("refused");
    }
    expect(classifyResult({ __typename: "AuthenticationError", code: "AUTHENTICATION_REQUIRED", message: "m" })).toBe("signIn");
    expect(classifyResult({ __typename: "ModelUnavailableError", code: "UNAVAILABLE", message: "m" })).toBe("retry");
    expect(classifyResult(null)).toBe("retry");
  });
});

describe("planBatch", () => {
  it("removes delivered items, keeps refused ones as failed with the message, retries the rest", () => {
    const batch = [item("a", 1), item("b", 2), item("c", 3), item("d", 4)];
    const results: CreateExampleResult[] = [
      submitted({ duplicate: true }), // the reply to an earlier attempt was lost
      { __typename: "InputError", code: "INVALID_INPUT", message: "The example is not valid.", fields: [{ field: "fields.statement", message: "must be non-empty text" }] },
      { __typename: "ModelUnavailableError", code: "UNAVAILABLE", message: "busy" },
      submitted({ verdict: "NOT_FOOLED", message: "The model got it right." }),
    ];
    const plan = planBatch(batch, results, 100);
    expect(plan.delivered.map((r) => r.clientId)).toEqual(["a", "d"]);
    expect(plan.delivered[0].view.duplicate).toBe(true);
    // A duplicate has no predictions: the verdict view comes from the stored model output.
    expect(plan.delivered[0].view.answers[0].label).toBe("negative");
    expect(plan.delivered[0].view.answers[0].probabilities.map((p) => p.label)).toEqual(["negative", "positive", "neutral"]);
    expect(plan.refused).toHaveLength(1);
    expect(plan.refused[0]).toMatchObject({ clientId: "b", state: "failed", failure: { code: "INVALID_INPUT", message: "The example is not valid." } });
    expect(plan.refused[0].failure?.fields[0].field).toBe("fields.statement");
    expect(plan.retry.map((i) => i.clientId)).toEqual(["c"]);
    expect(plan.retry[0].lastError).toBe("busy");
    expect(plan.signInRequired).toBe(false);
  });

  it("keeps a near-duplicate refused on sync as a failed draft with the server's message (nothing is lost)", () => {
    const message = "This repeats your earlier example #12 (nearly the same words, similarity 0.82). Please write something new.";
    const plan = planBatch([item("a", 1)], [{ __typename: "DuplicateExampleError", code: "DUPLICATE_EXAMPLE", message }], 1);
    expect(plan.delivered).toHaveLength(0);
    expect(plan.retry).toHaveLength(0);
    expect(plan.refused[0]).toMatchObject({ clientId: "a", state: "failed", input: item("a", 1).input, failure: { code: "DUPLICATE_EXAMPLE", message } });
  });

  it("asks for a new session on AuthenticationError and keeps the item pending", () => {
    const plan = planBatch([item("a", 1)], [{ __typename: "AuthenticationError", code: "AUTHENTICATION_FAILED", message: "expired" }], 1);
    expect(plan.signInRequired).toBe(true);
    expect(plan.retry[0].state).toBe("pending");
    expect(plan.delivered).toEqual([]);
  });

  it("retries everything when the answer does not match the batch", () => {
    const plan = planBatch([item("a", 1), item("b", 2)], [submitted()], 1);
    expect(plan.delivered).toEqual([]);
    expect(plan.retry.map((i) => i.clientId)).toEqual(["a", "b"]);
  });
});

describe("backoffDelay", () => {
  it("doubles per failure within [50%, 100%] of the ceiling and is capped", () => {
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(2, () => 1)).toBe(2000);
    expect(backoffDelay(4, () => 1)).toBe(8000);
    expect(backoffDelay(50, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(50, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
});

describe("pendingCount", () => {
  it("counts the user's pending items only", () => {
    const items = [item("a", 1), item("b", 2, { state: "failed" }), item("c", 3, { username: "bob" })];
    expect(pendingCount(items, "ann")).toBe(1);
    expect(pendingCount(items, null)).toBe(2);
  });
});
