// The webhook page's pure logic: the form checked as the server would, the grace period, the delivery log's pages.
import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "./documents";
import {
  attemptOutcome, controlId, emptyWebhookForm, mergeDeliveries, parseGraceHours, succeeded, toggleEvent, validateWebhookForm,
} from "./form";
import { EVENT_SHORT, WEBHOOK_TEXT } from "./text";

const valid = { url: "https://hooks.example.org/dynabench", events: ["EXAMPLE_CREATED" as const], description: "Slack relay" };
const fields = (values: Parameters<typeof validateWebhookForm>[0]) => validateWebhookForm(values).map((p) => [p.field, p.message]);

describe("validateWebhookForm", () => {
  it("accepts an https URL with an event", () => {
    expect(validateWebhookForm(valid)).toEqual([]);
    expect(validateWebhookForm({ ...valid, url: "  https://hooks.example.org/x  " })).toEqual([]);
  });

  it("leaves http:// to the server (allowed only where private targets are)", () => {
    expect(validateWebhookForm({ ...valid, url: "http://127.0.0.1:8080/hook" })).toEqual([]);
  });

  it("names every problem with its field, in the form's order", () => {
    expect(fields(emptyWebhookForm())).toEqual([
      ["url", "Give the URL the deliveries are sent to."],
      ["events", "Choose at least one event."],
    ]);
    expect(fields({ ...valid, url: "ftp://files.example.org/" })).toEqual([["url", "Webhook URLs must start with https://."]]);
    expect(fields({ ...valid, url: "https://exa mple.org/" })).toEqual([["url", "A URL cannot hold spaces (percent-encode them)."]]);
    expect(fields({ ...valid, url: "https://" })).toEqual([["url", "That is not a valid URL."]]);
    expect(fields({ ...valid, url: `https://example.org/${"a".repeat(2000)}` })[0][1]).toContain("at most 2000");
    expect(fields({ ...valid, description: "x".repeat(201) })).toEqual([["description", "At most 200 characters."]]);
  });
});

describe("form helpers", () => {
  it("keeps the schema's order of events whatever the clicks", () => {
    let chosen = toggleEvent([], "ROUND_CLOSED", true);
    chosen = toggleEvent(chosen, "EXAMPLE_CREATED", true);
    expect(chosen).toEqual(["EXAMPLE_CREATED", "ROUND_CLOSED"]);
    expect(toggleEvent(chosen, "ROUND_CLOSED", false)).toEqual(["EXAMPLE_CREATED"]);
  });

  it("points an events error at the first checkbox", () => {
    expect(controlId("url")).toBe("webhook-url");
    expect(controlId("events")).toBe("webhook-event-EXAMPLE_CREATED");
  });

  it("reads the grace period as whole hours from 0 to a week", () => {
    expect(parseGraceHours("24")).toBe(24);
    expect(parseGraceHours(" 0 ")).toBe(0);
    expect(parseGraceHours("168")).toBe(168);
    for (const bad of ["169", "-1", "1.5", "", "a day"]) expect(typeof parseGraceHours(bad)).toBe("string");
  });
});

const delivery = (id: string): WebhookDelivery => ({
  id, eventId: `evt_${id}`, event: "EXAMPLE_CREATED", status: "DELIVERED", attemptCount: 1, attempts: [],
  nextAttemptAt: null, createdAt: "2026-11-24T12:00:00+00:00", deliveredAt: null,
});

describe("the delivery log", () => {
  it("appends a page's older deliveries, none twice", () => {
    const merged = mergeDeliveries([delivery("3"), delivery("2")], [delivery("2"), delivery("1")]);
    expect(merged.map((d) => d.id)).toEqual(["3", "2", "1"]);
  });

  it("says what each attempt got", () => {
    expect(attemptOutcome({ statusCode: 200, error: null })).toBe("HTTP 200");
    expect(attemptOutcome({ statusCode: 500, error: "HTTP 500" })).toBe("HTTP 500");
    expect(attemptOutcome({ statusCode: null, error: "Connection refused" })).toBe("Connection refused");
    expect(attemptOutcome({ statusCode: null, error: null })).toBe("No answer");
    expect([200, 204, 299].map((statusCode) => succeeded({ statusCode }))).toEqual([true, true, true]);
    expect([null, 199, 301, 500].map((statusCode) => succeeded({ statusCode }))).toEqual([false, false, false, false]);
  });

  it("has a word for every status and event", () => {
    expect(Object.keys(WEBHOOK_TEXT.statusText).sort()).toEqual(["CANCELLED", "DELIVERED", "FAILED", "PENDING"]);
    expect(EVENT_SHORT.MODEL_SCORED).toBe("model.scored");
  });
});
