import { describe, expect, it } from "vitest";
import { parse } from "../router";
import { completionAction, demoteHeadings, examplesNow, formatMoney, isMturkPreview, joinParams, quotaLines, refusalText, viewOfStage, viewOfState, wayBack } from "./flow";
import type { CampaignWorkerState } from "./types";

const state = (over: Partial<CampaignWorkerState> = {}): CampaignWorkerState => ({
  campaign: {
    id: "Q2FtcGFpZ246MQ==", code: "abc", title: "T", platform: "PROLIFIC", consentHtml: "", instructionsHtml: "",
    quiz: [], quizPassMark: null, taskCode: "nli", roundId: "UjE=",
  },
  stage: "WORK", quizAttemptsLeft: 0, examplesLeft: null, validationsLeft: null, examplesLeftToday: null,
  validationsLeftToday: null, quotaDone: false, earnedCents: 0, pendingCents: 0, currency: "GBP",
  ...over,
});

describe("join link parsing", () => {
  it("keeps Prolific's parameters from the hash route's query, and drops the rest", () => {
    const { path, query } = parse("/join/abc?PROLIFIC_PID=5f3a&STUDY_ID=60aa&SESSION_ID=61bb&utm_source=x");
    expect(path).toBe("/join/abc");
    expect(joinParams(query)).toEqual([
      { name: "PROLIFIC_PID", value: "5f3a" },
      { name: "STUDY_ID", value: "60aa" },
      { name: "SESSION_ID", value: "61bb" },
    ]);
    expect(isMturkPreview(query)).toBe(false);
  });

  it("keeps MTurk's parameters, decoding turkSubmitTo, and repeated values for the server to judge", () => {
    const { query } = parse("/join/x?workerId=A1&assignmentId=B2&hitId=C3&turkSubmitTo=https%3A%2F%2Fwww.mturk.com&workerId=A9");
    expect(joinParams(query)).toEqual([
      { name: "workerId", value: "A1" },
      { name: "assignmentId", value: "B2" },
      { name: "hitId", value: "C3" },
      { name: "turkSubmitTo", value: "https://www.mturk.com" },
      { name: "workerId", value: "A9" },
    ]);
  });

  it("recognises MTurk's preview", () => {
    expect(isMturkPreview(parse("/join/x?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H").query)).toBe(true);
    expect(isMturkPreview(parse("/join/x?assignmentId=ABC").query)).toBe(false);
    expect(isMturkPreview(parse("/join/x").query)).toBe(false);
  });

  it("keeps an open link's pid", () => {
    expect(joinParams(parse("/join/x?pid=me.1").query)).toEqual([{ name: "pid", value: "me.1" }]);
  });
});

describe("stage → page", () => {
  it("maps every stage", () => {
    expect(viewOfStage("CONSENT")).toBe("consent");
    expect(viewOfStage("QUIZ")).toBe("quiz");
    expect(viewOfStage("WORK")).toBe("work");
    expect(viewOfStage("DONE")).toBe("completion");
    expect(viewOfStage("SCREENED_OUT")).toBe("completion");
  });

  it("sends a worker with the quota done to the completion", () => {
    expect(viewOfState(state())).toBe("work");
    expect(viewOfState(state({ quotaDone: true }))).toBe("completion");
    expect(viewOfState(state({ stage: "QUIZ", quotaDone: true }))).toBe("quiz");
  });
});

describe("completion", () => {
  it("links to Prolific's completion URL", () => {
    const url = "https://app.prolific.com/submissions/complete?cc=C0DE";
    expect(completionAction({ code: "C0DE", screenedOut: false, method: "GET", url, fields: [] })).toEqual({ kind: "link", url });
  });

  it("builds MTurk's external-submit form", () => {
    const fields = [{ name: "assignmentId", value: "B2" }, { name: "completionCode", value: "C0DE" }];
    expect(completionAction({ code: "C0DE", screenedOut: false, method: "POST", url: "https://www.mturk.com/mturk/externalSubmit", fields }))
      .toEqual({ kind: "form", action: "https://www.mturk.com/mturk/externalSubmit", fields });
  });

  it("shows only the code without a target, or with one that is not https", () => {
    expect(completionAction({ code: "C", screenedOut: false, method: null, url: null, fields: [] })).toEqual({ kind: "none" });
    expect(completionAction({ code: "C", screenedOut: false, method: "GET", url: "javascript:alert(1)", fields: [] })).toEqual({ kind: "none" });
    expect(completionAction({ code: "C", screenedOut: true, method: "GET", url: "http://example.org/", fields: [] })).toEqual({ kind: "none" });
  });
});

describe("quota display", () => {
  it("lists only the limits that exist", () => {
    expect(quotaLines(state())).toEqual([]);
    expect(quotaLines(state({ examplesLeftToday: 1, examplesLeft: 4 }))).toEqual([
      "1 example left today",
      "4 examples left in this campaign",
    ]);
    expect(quotaLines(state({ validationsLeft: 0 }))).toEqual(["0 validations left in this campaign"]);
  });

  it("counts what can be written now", () => {
    expect(examplesNow(state())).toBeNull();
    expect(examplesNow(state({ examplesLeftToday: 3, examplesLeft: 2 }))).toBe(2);
  });

  it("formats money", () => {
    expect(formatMoney(1250, "GBP", "en-GB")).toBe("£12.50");
    expect(formatMoney(5, "ZZZZ", "en")).toBe("0.05 ZZZZ");
  });
});

describe("campaign text", () => {
  it("puts the owner's headings under the page's", () => {
    expect(demoteHeadings("<h1>Consent</h1><p>x</p><h5>a</h5><h6>b</h6>")).toBe("<h3>Consent</h3><p>x</p><h6>a</h6><h6>b</h6>");
  });
});

describe("a link that does not work", () => {
  it("gives the reason once", () => {
    const reason = "SESSION_ID must be 24 hexadecimal characters.";
    expect(refusalText(reason, [{ message: "24 hexadecimal characters" }])).toBe(reason);
    expect(refusalText(reason, [{ message: reason }, { message: reason }])).toBe(reason);
    expect(refusalText("Too long.", [{ message: "a parameter is too long" }])).toBe("Too long. a parameter is too long");
    expect(refusalText("Closed.", undefined)).toBe("Closed.");
  });

  it("leads back to the platform: the campaign's, else the one the link's parameters name", () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(wayBack("PROLIFIC", q(""))).toEqual({ platform: "PROLIFIC", url: "https://app.prolific.com/" });
    expect(wayBack(null, q("PROLIFIC_PID=x&SESSION_ID=bad"))).toEqual({ platform: "PROLIFIC", url: "https://app.prolific.com/" });
    expect(wayBack(null, q("workerId=A&turkSubmitTo=https://workersandbox.mturk.com")).url).toBe("https://workersandbox.mturk.com/");
    expect(wayBack("MTURK", q("turkSubmitTo=https://evil.example")).url).toBe("https://worker.mturk.com/");
    expect(wayBack(null, q("utm_source=x"))).toEqual({ platform: null, url: null });
    expect(wayBack("OPEN", q("PROLIFIC_PID=x")).platform).toBeNull();
  });
});
