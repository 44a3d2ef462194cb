import { describe, expect, it } from "vitest";
import { emptyForm, formOf, inputOf, validateForm, type CampaignFormValues } from "./form";

const valid = (): CampaignFormValues => ({
  ...emptyForm(1),
  title: "Pilot",
  consent: "I agree",
  status: "OPEN",
  completionCode: "DONE123",
  failureCode: "SCREENED",
  questions: [{ prompt: "Is 'great' positive?", choices: "positive\nnegative", answer: "positive" }],
  passMark: "1",
  attempts: "2",
});

const fields = (v: CampaignFormValues, creating = true) => validateForm(v, creating).map((e) => e.field);

describe("campaign form", () => {
  it("accepts a complete campaign and builds the input", () => {
    const v = valid();
    v.quotas.examplesPerDay = "5";
    v.bonusCapCents = "";
    expect(validateForm(v, true)).toEqual([]);
    const input = inputOf(v);
    expect(input.roundNumber).toBe(1);
    expect(input.quiz).toEqual({ questions: [{ prompt: "Is 'great' positive?", choices: ["positive", "negative"], answer: "positive" }], passMark: 1, attempts: 2 });
    expect(input.quotas).toEqual({ examplesPerDay: 5, examplesPerCampaign: null, validationsPerDay: null, validationsPerCampaign: null, exampleBudget: null });
    expect(input.bonusCapCents).toBeNull();
    expect(input.completionRedirect).toBeNull();
  });

  it("reports what the server would refuse, with its messages", () => {
    const v = { ...valid(), title: " ", consent: "", currency: "gbp", failureCode: "DONE123", completionRedirect: "http://x.org" };
    v.pay = { ...v.pay, baseCents: "-1" };
    v.quotas = { ...v.quotas, exampleBudget: "1.5" };
    const problems = validateForm(v, true);
    expect(problems).toContainEqual({ field: "title", message: "1 to 200 characters of text" });
    expect(problems).toContainEqual({ field: "consent", message: "an open campaign needs a consent text" });
    expect(problems).toContainEqual({ field: "currency", message: "a three-letter ISO 4217 code such as USD or GBP" });
    expect(problems).toContainEqual({ field: "failureCode", message: "must differ from the completion code" });
    expect(problems).toContainEqual({ field: "completionRedirect", message: "The completion redirect must be an https:// URL." });
    expect(fields(v)).toContain("pay.baseCents");
    expect(fields(v)).toContain("quotas.exampleBudget");
  });

  it("checks the quiz", () => {
    const v = valid();
    v.questions = [{ prompt: "Q", choices: "a\nb", answer: "c" }];
    v.passMark = "2";
    v.attempts = "11";
    expect(validateForm(v, true)).toEqual([
      { field: "quiz.questions.0.answer", message: "must be one of the choices" },
      { field: "quiz.passMark", message: "The pass mark is between 1 and the number of questions (1)." },
      { field: "quiz.attempts", message: "A quiz allows 1 to 10 attempts." },
    ]);
  });

  it("needs a round to create, not to edit", () => {
    const v = { ...valid(), roundNumber: "" };
    expect(fields(v, true)).toEqual(["roundNumber"]);
    expect(fields(v, false)).toEqual([]);
    expect(inputOf(v).roundNumber).toBeUndefined();
  });

  it("round-trips a stored campaign", () => {
    const v = valid();
    const input = inputOf(v);
    const back = formOf({ ...input, quiz: input.quiz!.questions, quizPassMark: 1, quizAttempts: 2 }, 1);
    expect(back).toEqual({ ...v, questions: [{ ...v.questions[0], choices: "positive\nnegative" }] });
  });
});
