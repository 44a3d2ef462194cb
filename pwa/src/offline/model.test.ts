import { describe, expect, it } from "vitest";
import { argmaxLabel, compareLabels, encodeWithTemplate, formatBytes, keptLengths, readTemplate, sameModel, sizeFacts, storedFacts, type OfflineModel } from "./model";

// Kept lengths measured with the Python `tokenizers` library (strategy longest_first, max_length 256, BERT template:
// 253 tokens for a pair, 254 for a single sequence).
const PYTHON_CASES: [number, number, number, number][] = [
  [300, 5, 248, 5], [5, 300, 5, 248], [200, 200, 126, 127], [254, 1, 252, 1], [130, 130, 126, 127],
  [127, 128, 126, 127], [128, 127, 127, 126], [253, 3, 250, 3], [250, 10, 243, 10], [10, 250, 10, 243],
];

const TOKENIZER_JSON = {
  post_processor: {
    type: "TemplateProcessing",
    single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
    pair: [
      { SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } },
      { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } },
    ],
    special_tokens: { "[CLS]": { id: "[CLS]", ids: [101], tokens: ["[CLS]"] }, "[SEP]": { id: "[SEP]", ids: [102], tokens: ["[SEP]"] } },
  },
};

describe("longest-first truncation", () => {
  it("keeps what the Python tokenizer keeps", () => {
    for (const [n1, n2, k1, k2] of PYTHON_CASES) expect(keptLengths(n1, n2, 253)).toEqual([k1, k2]);
    expect(keptLengths(400, null, 254)).toEqual([254, 0]);
    expect(keptLengths(5, null, 254)).toEqual([5, 0]);
  });
});

describe("encodeWithTemplate", () => {
  const template = readTemplate(TOKENIZER_JSON);
  it("wraps one sequence", () => {
    expect(encodeWithTemplate([[7, 8]], template, 256)).toEqual({
      inputIds: [101, 7, 8, 102], attentionMask: [1, 1, 1, 1], tokenTypeIds: [0, 0, 0, 0],
    });
  });
  it("wraps and truncates a pair", () => {
    const a = Array.from({ length: 300 }, () => 5);
    const encoded = encodeWithTemplate([a, [9, 9]], template, 256);
    expect(encoded.inputIds.length).toBe(256);
    expect(encoded.tokenTypeIds.filter((t) => t === 1).length).toBe(3);
    expect(encoded.inputIds.slice(-3)).toEqual([9, 9, 102]);
  });
  it("refuses a tokenizer without a template", () => {
    expect(() => readTemplate({ post_processor: { type: "ByteLevel" } })).toThrow();
  });
});

describe("labels and sizes", () => {
  it("picks the most probable label", () => {
    expect(argmaxLabel([0.1, 0.7, 0.2], ["negative", "positive", "neutral"])).toBe("positive");
  });
  it("compares labels", () => {
    expect(compareLabels("Positive", "positive")).toBe("agree");
    expect(compareLabels("negative", "positive")).toBe("differ");
    expect(compareLabels(null, "positive")).toBe("unknown");
  });
  it("formats sizes", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(16_342_000)).toBe("15.6 MB");
  });
});

describe("prepared copies", () => {
  const model: OfflineModel = {
    name: "sentiment_minilm", version: "1", labels: ["negative", "positive"], inputs: ["statement"],
    inputNames: ["input_ids", "attention_mask"], maxLength: 256,
    files: [{ name: "model.onnx", url: "/m", sha256: "aa", bytes: 1 }, { name: "tokenizer.json", url: "/t", sha256: "bb", bytes: 2 }],
  };
  it("is current while name, version and checksums match", () => {
    expect(sameModel(model, { ...model, files: [...model.files].reverse() })).toBe(true);
    expect(sameModel(model, { ...model, version: "2" })).toBe(false);
    expect(sameModel(model, { ...model, files: [{ ...model.files[0], sha256: "cc" }, model.files[1]] })).toBe(false);
  });
});

describe("sizes shown before and after preparing", () => {
  const model = {
    name: "m", version: "1", labels: ["a"], inputs: ["statement"], inputNames: ["input_ids"], maxLength: 8,
    files: [{ name: "model.onnx", url: "/m.onnx", sha256: "x", bytes: 22_600_000 }, { name: "tokenizer.json", url: "/t.json", sha256: "y", bytes: 400_000 }],
  };
  it("downloads the model's files and the runtime: one total", () => {
    expect(sizeFacts(model, 13_600_000)).toEqual({ model: 23_000_000, runtime: 13_600_000, total: 36_600_000 });
  });
  it("says the runtime's size is unknown rather than leaving it out silently", () => {
    expect(sizeFacts(model, null)).toEqual({ model: 23_000_000, runtime: null, total: 23_000_000 });
    expect(sizeFacts(model, 0).runtime).toBeNull();
  });
  it("gives the same figures once prepared, from what the device keeps", () => {
    const before = sizeFacts(model, 13_600_000);
    const prepared = { roundId: "r", model, wasmUrl: "/ort.wasm", bytes: before.total, preparedAt: 1 };
    expect(storedFacts(prepared)).toEqual(before);
  });
});
