// The committed src/api/generated/ must be what the current ../schema.graphql and documents produce: a field renamed
// or retyped on the server changes the generated types, and the app's type check then fails where it reads it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generate, OPERATIONS_PATH, REGENERATE, TYPES_PATH } from "../../scripts/operations";

const committed = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

describe("generated API types", () => {
  it("are up to date with schema.graphql and every documents.ts", async () => {
    const { operations, types } = await generate();
    expect(committed(OPERATIONS_PATH), `src/api/generated/operations.graphql is stale: ${REGENERATE}`).toBe(operations);
    expect(committed(TYPES_PATH), `src/api/generated/types.ts is stale: ${REGENERATE}`).toBe(types);
  });
});
