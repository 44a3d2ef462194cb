import { describe, expect, it } from "vitest";
import { parseValidatorFields } from "../forms/specs";
import { RATED_VOTE_KEYS, ratedFields, ratedVoteLabel, ratingRange, ratingSays, unseenFields } from "./rating";

const specs = parseValidatorFields({
  validator_fields: [
    { name: "note_kind", type: "dropdown", choices: ["a", "b"] },
    { name: "harm", type: "rating", scale: 5, display_name: "Harm" },
    { name: "reason", type: "text", show_when: "flagged" },
    { name: "fix", type: "text", show_when: "incorrect" },
  ],
});
const rule = { field: "harm", threshold: 4 };

describe("a rated vote (fooling validator_rating)", () => {
  it("sends CORRECT for a submitted rating and FLAGGED for a flag; keys 1 and 3 only", () => {
    expect(ratedVoteLabel("submit")).toBe("CORRECT");
    expect(ratedVoteLabel("flag")).toBe("FLAGGED");
    expect(RATED_VOTE_KEYS).toEqual({ "1": "submit", "3": "flag" });
  });

  it("asks the rating field first, then the other fields of the vote", () => {
    expect(ratedFields(specs, rule, "CORRECT").map((f) => f.name)).toEqual(["harm", "note_kind"]);
    expect(ratedFields(specs, rule, "FLAGGED").map((f) => f.name)).toEqual(["harm", "note_kind", "reason"]);
    // Without a rule (a config the server would refuse) the fields keep their order.
    expect(ratedFields(specs, null, "CORRECT").map((f) => f.name)).toEqual(["note_kind", "harm"]);
  });

  it("a flag with fields of its own shows them before it is sent", () => {
    const shown = ratedFields(specs, rule, "CORRECT");
    expect(unseenFields(ratedFields(specs, rule, "FLAGGED"), shown).map((f) => f.name)).toEqual(["reason"]);
    expect(unseenFields(ratedFields(specs, rule, "CORRECT"), shown)).toEqual([]);
  });

  it("reads the rating's range and what a rating says against the threshold", () => {
    const [harm] = ratedFields(specs, rule, "CORRECT");
    expect(ratingRange(harm)).toEqual({ low: 1, high: 5 });
    const [score] = parseValidatorFields({ validator_fields: [{ name: "score", type: "number", min: 0, max: 10 }] });
    expect(ratingRange(score)).toEqual({ low: 0, high: 10 });
    expect(ratingSays(5, 4)).toBe("failed");
    expect(ratingSays(4, 4)).toBe("failed");
    expect(ratingSays(3, 4)).toBe("held");
    expect(ratingSays("4.5", 4)).toBe("failed");
    expect(ratingSays(undefined, 4)).toBeNull();
    expect(ratingSays("", 4)).toBeNull();
  });
});
