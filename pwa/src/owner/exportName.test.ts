import { describe, expect, it } from "vitest";
import { exportFileName } from "./exportName";

describe("exportFileName", () => {
  it("names the file by the task and the round", () => {
    expect(exportFileName("nli", 1, "JSONL")).toBe("nli-round-1.jsonl");
    expect(exportFileName("sentiment", 12, "HF_DATASET")).toBe("sentiment-round-12-hf.tar.gz");
    expect(exportFileName("arena", 2, "PREFERENCES")).toBe("arena-round-2-preferences.jsonl");
  });
  it("keeps only characters safe in a file name", () => {
    expect(exportFileName("../a b/é:c", 2, "JSONL")).toBe("a-b-c-round-2.jsonl");
    expect(exportFileName("///", 3, "JSONL")).toBe("task-round-3.jsonl");
  });
});
