// Every document the app sends must be valid against the server's exported schema (../schema.graphql).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { ALL_DOCUMENTS } from "./documents";

const schemaPath = fileURLToPath(new URL("../../../schema.graphql", import.meta.url));
const schema = buildSchema(readFileSync(schemaPath, "utf8"));

describe("GraphQL documents", () => {
  for (const [name, source] of Object.entries(ALL_DOCUMENTS)) {
    it(`${name} is valid against schema.graphql`, () => {
      const errors = validate(schema, parse(source));
      expect(errors.map((e) => e.message)).toEqual([]);
    });
  }
});
