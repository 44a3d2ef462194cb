import { describe, expect, it } from "vitest";
import { fromModelOutput, orderProbabilities, viewOfSubmission } from "./verdict";

describe("verdict views", () => {
  it("uses the live predictions when there are some", () => {
    const view = viewOfSubmission({
      __typename: "ExampleSubmitted", verdict: "NOT_FOOLED", message: "m", duplicate: false, example: null,
      predictions: [{
        modelName: "m1", modelVersion: "1", label: "positive", answer: null, answerStart: null, answerEnd: null, confidence: null,
        probabilities: [{ label: "negative", probability: 0.1 }, { label: "positive", probability: 0.8 }, { label: "neutral", probability: 0.1 }],
      }],
    }, true, "positive");
    expect(view.sandbox).toBe(true);
    expect(view.intended).toBe("positive");
    expect(view.answers[0].probabilities.map((p) => p.label)).toEqual(["positive", "negative", "neutral"]);
  });

  it("reads several models from by_model", () => {
    const answers = fromModelOutput("a+b", {
      label: "x", by_model: [{ model: "a", label: "x", probs: { x: 0.6, y: 0.4 } }, { model: "b", label: "y", probs: { x: 0.3, y: 0.7 } }],
    });
    expect(answers.map((a) => [a.modelName, a.label])).toEqual([["a", "x"], ["b", "y"]]);
  });

  it("reads a QA answer", () => {
    const [answer] = fromModelOutput("qa", { answer: "Paris", start: 3, end: 8, confidence: 0.9 });
    expect(answer).toMatchObject({ answer: "Paris", confidence: 0.9, probabilities: [] });
  });

  it("keeps ties in order", () => {
    expect(orderProbabilities([{ label: "a", probability: 0.5 }, { label: "b", probability: 0.5 }]).map((p) => p.label)).toEqual(["a", "b"]);
  });
});
