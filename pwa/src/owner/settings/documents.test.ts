// The task settings documents must be valid against the server's exported schema (../schema.graphql), and the
// statuses and visibilities the page knows must be the schema's enums.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, GraphQLEnumType, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { SETTINGS_DOCUMENTS } from "./documents";
import { STATUSES, VISIBILITIES } from "./settings";

const schema = buildSchema(readFileSync(fileURLToPath(new URL("../../../../schema.graphql", import.meta.url)), "utf8"));
const values = (name: string) => (schema.getType(name) as GraphQLEnumType).getValues().map((v) => v.name);

describe("task settings documents", () => {
  for (const [name, source] of Object.entries(SETTINGS_DOCUMENTS)) {
    it(`${name} is valid against schema.graphql`, () => {
      expect(validate(schema, parse(source)).map((e) => e.message)).toEqual([]);
    });
  }

  it("knows exactly the schema's task statuses and visibilities", () => {
    expect([...STATUSES].sort()).toEqual(values("TaskStatus").sort());
    expect([...VISIBILITIES].sort()).toEqual(values("TaskVisibility").sort());
  });
});
