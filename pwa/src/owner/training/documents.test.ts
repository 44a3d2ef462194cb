// The training runs' documents must be valid against the server's schema.graphql.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { TRAINING_DOCUMENTS } from "./documents";

const schema = buildSchema(readFileSync(fileURLToPath(new URL("../../../../schema.graphql", import.meta.url)), "utf8"));

describe("training runs documents", () => {
  for (const [name, source] of Object.entries(TRAINING_DOCUMENTS)) {
    it(`${name} is valid against schema.graphql`, () => {
      expect(validate(schema, parse(source)).map((e) => e.message)).toEqual([]);
    });
  }
});
