import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, parse, validate } from "graphql";
import { expect, it } from "vitest";
import { ROUND_OFFLINE_MODEL } from "./documents";

it("RoundOfflineModel is valid against schema.graphql", () => {
  const schema = buildSchema(readFileSync(fileURLToPath(new URL("../../../schema.graphql", import.meta.url)), "utf8"));
  expect(validate(schema, parse(ROUND_OFFLINE_MODEL)).map((e) => e.message)).toEqual([]);
});
