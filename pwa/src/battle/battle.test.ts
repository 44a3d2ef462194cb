import { afterEach, describe, expect, it } from "vitest";
import { activateCatalog } from "../i18n/runtime";
import es from "../i18n/locales/es";
import type { ReplyChunk } from "../chat/stream";
import {
  announceSide, applySideChunk, canVote, choiceLabel, completeRatings, continuableSides, continueText, ratingHint, ratingSpec,
  ratingValues, refusalText, rereadBattle, voteProblems, revealText, voteOptions, withSide, writingSides, type Battle, type BattleSide,
} from "./battle";
import type { TaskConfig } from "../api/types";
import { hasBattle } from "./config";

afterEach(() => activateCatalog("en", null));

const side = (label: string, patch: Partial<BattleSide> = {}): BattleSide => ({
  label, turnId: `t${label}`, reply: "", status: "GENERATING", error: "", modelName: null, modelVersion: null, ...patch,
});

const battle = (patch: Partial<Battle> = {}): Battle => ({
  id: "b1", roundId: "r1", contextId: "c1", prompt: "Hi", createdAt: "2026-11-28T05:00:00Z",
  choices: ["A", "B", "TIE", "BOTH_BAD"], votable: false, vote: null, sides: [side("A"), side("B")], ...patch,
});

const chunk = (turnId: string, text: string, done = false, status: ReplyChunk["status"] = "GENERATING"): ReplyChunk => ({
  turnId, text, done, status: done ? status : "GENERATING", error: "", judgeScore: null, truncated: false,
});

describe("a side's stream", () => {
  it("replaces the text on a subscription's first event, appends later ones and ends once", () => {
    let a = side("A", { reply: "stale" });
    a = applySideChunk(a, chunk("tA", "Hel"), true);
    a = applySideChunk(a, chunk("tA", "lo"), false);
    expect(a.reply).toBe("Hello");
    a = applySideChunk(a, chunk("tA", "!", true, "DONE"), false);
    expect([a.reply, a.status]).toEqual(["Hello!", "DONE"]);
    expect(applySideChunk(a, chunk("tA", "!", true, "DONE"), false)).toBe(a); // a late duplicate of the end
    expect(applySideChunk(side("B"), chunk("tA", "x"), false).reply).toBe(""); // another side's event
  });

  it("keeps the streamed text of a side still writing when the battle is re-read", () => {
    const before = withSide(battle(), side("A", { reply: "Partial text" }));
    const stored = battle({ sides: [side("A", { reply: "Part" }), side("B", { status: "DONE", reply: "Done" })] });
    const next = rereadBattle(before, stored);
    expect(next.sides.map((s) => [s.reply, s.status])).toEqual([["Partial text", "GENERATING"], ["Done", "DONE"]]);
    expect(rereadBattle(null, stored)).toBe(stored);
  });
});

describe("voting", () => {
  it("is allowed once every reply ended and before a vote", () => {
    expect(canVote(null)).toBe(false);
    expect(canVote(battle())).toBe(false);
    const ended = battle({ sides: [side("A", { status: "DONE" }), side("B", { status: "FAILED", error: "x" })] });
    expect(writingSides(ended)).toEqual([]);
    expect(canVote(ended)).toBe(true);
    expect(canVote({ ...ended, vote: { choice: "A", createdAt: "" } })).toBe(false);
  });

  it("labels the server's choices", () => {
    expect(voteOptions(battle()).map((o) => o.label)).toEqual(["A is better", "B is better", "Tie", "Both are bad"]);
    expect(choiceLabel("BOTH_BAD", 3)).toBe("All are bad");
    expect(voteOptions(battle({ choices: ["A", "B"] })).map((o) => o.choice)).toEqual(["A", "B"]);
    activateCatalog("es", es);
    expect(choiceLabel("B", 2)).toBe("B es mejor");
    expect(choiceLabel("TIE", 2)).toBe("Empate");
  });

  it("reveals a side's model only once it is named", () => {
    expect(revealText(side("A"))).toBeNull();
    expect(revealText(side("A", { modelName: "chat_demo", modelVersion: "1" }))).toBe("Model A was chat_demo (version 1)");
    expect(revealText(side("B", { modelName: "other", modelVersion: "" }))).toBe("Model B was other");
  });
});

describe("the live region", () => {
  it("says each side once, when its reply is complete, never per token", () => {
    const a0 = side("A");
    const a1 = applySideChunk(a0, chunk("tA", "Par"), false);
    let log = announceSide([], a0, a1);
    expect(log).toEqual([]);
    const a2 = applySideChunk(a1, chunk("tA", "is", true, "DONE"), false);
    log = announceSide(log, a1, a2);
    expect(log.map((a) => a.text)).toEqual(["Model A replied: Paris"]);
    expect(announceSide(log, a1, a2)).toBe(log); // the same end again
    const b = side("B");
    log = announceSide(log, b, { ...b, status: "STOPPED" });
    log = announceSide(log, undefined, side("C", { status: "DONE", reply: "x" })); // ended before the page loaded
    expect(log.map((a) => a.text)).toEqual(["Model A replied: Paris", "Model B stopped."]);
    expect(announceSide([], side("D"), side("D", { status: "FAILED", error: "" }))[0].text).toBe("Model D failed: The reply failed.");
  });
});

describe("hasBattle", () => {
  it("is true for a generative task with a battle block only", () => {
    expect(hasBattle({ kind: "generative", generative: { goal: "g", battle: {} } } as never)).toBe(true);
    expect(hasBattle({ kind: "generative", generative: { goal: "g" } } as never)).toBe(false);
    expect(hasBattle({ kind: "classification", generative: { battle: {} } } as never)).toBe(false);
  });
});

describe("rating each side and going on with one", () => {
  const config = (battle: Record<string, unknown>, fields: unknown[]) =>
    ({ kind: "generative", generative: { battle }, validator_fields: fields }) as unknown as TaskConfig;

  it("finds the battle's rating field on the task's form", () => {
    const spec = ratingSpec(config({ rating_field: "quality" }, [{ name: "quality", type: "rating", scale: 4 }]))!;
    expect([spec.name, ratingValues(spec)]).toEqual(["quality", [1, 2, 3, 4]]);
    expect(ratingHint(spec)).toBe("From 1 (worst) to 4 (best).");
    const number = ratingSpec(config({ rating_field: "score" }, [{ name: "score", type: "number", min: 0, max: 10 }]))!;
    expect([ratingValues(number), ratingHint(number)]).toEqual([null, "From 0 to 10, higher is better."]);
    expect(ratingSpec(config({}, [{ name: "quality", type: "rating" }]))).toBeNull();
    expect(ratingSpec(config({ rating_field: "notes" }, [{ name: "notes", type: "text" }]))).toBeNull();
  });

  it("sends ratings only once every side has one", () => {
    const sides = [side("A"), side("B")];
    expect(completeRatings(sides, { A: 2, B: 5 })).toEqual([2, 5]);
    expect(completeRatings(sides, { A: 2 })).toBeNull();
    expect(completeRatings(sides, { A: 2, B: null })).toBeNull();
    expect(completeRatings(sides, { A: 2, B: Number.NaN })).toBeNull();
  });

  it("offers the continuable sides of a voted battle by label and name", () => {
    const voted = battle({
      vote: { choice: "B", createdAt: "2026-11-28T05:01:00Z" },
      sides: [side("A", { modelName: "m1", continuable: false }), side("B", { modelName: "m2", continuable: true })],
    });
    expect(continuableSides(voted).map(continueText)).toEqual(["Continue with Model B (m2)"]);
    expect(continuableSides(battle({ sides: [side("A", { continuable: true })] }))).toEqual([]);
  });

  it("names the side of a rating's problem", () => {
    expect(voteProblems([{ field: "ratings.1", message: "must be a whole number from 1 to 5" }, { field: "choice", message: "no" }]))
      .toBe("Model B: must be a whole number from 1 to 5 no");
  });

  it("says how long to wait after a rate limit", () => {
    expect(refusalText({ __typename: "RateLimitedError", code: "RATE_LIMITED", message: "Too many messages.", retryAfterSeconds: 41.2 }))
      .toBe("Too many messages. Try again in 42 s.");
    expect(refusalText({ __typename: "ConflictError", code: "CONFLICT", message: "No." })).toBe("No.");
  });
});
