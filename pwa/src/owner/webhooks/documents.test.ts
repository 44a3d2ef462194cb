// The webhook documents must be valid against the server's exported schema (../schema.graphql), and the event list
// must be the schema's WebhookEventType enum.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, GraphQLEnumType, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { WEBHOOK_DOCUMENTS, WEBHOOK_EVENTS } from "./documents";

const schema = buildSchema(readFileSync(fileURLToPath(new URL("../../../../schema.graphql", import.meta.url)), "utf8"));

describe("webhook documents", () => {
  for (const [name, source] of Object.entries(WEBHOOK_DOCUMENTS)) {
    it(`${name} is valid against schema.graphql`, () => {
      expect(validate(schema, parse(source)).map((e) => e.message)).toEqual([]);
    });
  }

  it("offers exactly the schema's event types", () => {
    const events = schema.getType("WebhookEventType") as GraphQLEnumType;
    expect([...WEBHOOK_EVENTS]).toEqual(events.getValues().map((v) => v.name));
  });
});
