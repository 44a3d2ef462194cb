import { describe, expect, it } from "vitest";
import type { ServedModel, ServedTargets } from "./create/documents";
import { anyChoosable, chosenTargets, endpointOfTarget, keepChosen, servedFor, servedKind, targetOptions } from "./targets";

function served(name: string, patch: Partial<ServedModel> = {}): ServedModel {
  return {
    name, versions: ["3", "2"], ready: true, kind: "classification", task: null, inputs: ["statement"], labels: [],
    heldoutAccuracy: 0.8, heldoutF1: null, builtAt: null, builtinTask: null, shared: false, usable: true, unusableReason: null,
    ...patch,
  };
}

const data: ServedTargets = {
  targets: [
    served("community"),
    served("sentiment_builtin", { builtinTask: "sentiment", usable: false, unusableReason: "belongs to sentiment" }),
    served("nli_shared", { builtinTask: "nli", shared: true }),
    served("away", { ready: false, versions: [], unusableReason: "No version is ready." }),
  ],
  submissions: [{ modelId: "TW9kZWw6Nw==", name: "my-bert", status: "PUBLISHED", readiness: { ready: false } }],
};

describe("round target options", () => {
  const options = targetOptions(data);

  it("lists served models then submissions, each choosable only when usable and ready, with the server's reason", () => {
    expect(options.map((o) => [o.key, o.choosable, o.reason])).toEqual([
      ["served:community", true, null],
      ["served:sentiment_builtin", false, "belongs to sentiment"],
      ["served:nli_shared", true, null],
      ["served:away", false, "No version is ready."],
      ["submission:TW9kZWw6Nw==", true, null], // an idle submission is loaded again on use
    ]);
    expect(options[2].shared).toBe(true);
  });

  it("sends a served model by name at its newest ready version and a submission by modelId", () => {
    expect(chosenTargets(options, ["submission:TW9kZWw6Nw==", "served:nli_shared"])).toEqual([
      { name: "nli_shared", version: "3" },
      { modelId: "TW9kZWw6Nw==" },
    ]);
  });

  it("never sends a model that cannot be chosen, and drops one that stopped being choosable", () => {
    expect(chosenTargets(options, ["served:sentiment_builtin", "served:away"])).toEqual([]);
    const unshared = targetOptions({ ...data, targets: [served("nli_shared", { builtinTask: "nli", usable: false, unusableReason: "x" })] });
    expect(keepChosen(unshared, ["served:nli_shared", "submission:TW9kZWw6Nw=="])).toEqual(["submission:TW9kZWw6Nw=="]);
  });

  it("knows when nothing can be chosen", () => {
    expect(anyChoosable(options)).toBe(true);
    expect(anyChoosable(targetOptions({ targets: [data.targets[1], data.targets[3]], submissions: [] }))).toBe(false);
    expect(anyChoosable(targetOptions({ targets: [], submissions: [] }))).toBe(false);
  });
});

describe("generative targets", () => {
  it("are asked for unfiltered and picked out: text in, text streamed out follows no classifier contract", () => {
    expect(servedKind("generative")).toBeNull();
    expect(servedKind("classification")).toBe("classification");
    const models = [served("sentiment"), served("chat_demo", { kind: null, inputs: ["text_input"] }), served("qa", { kind: "extractive_qa" })];
    expect(servedFor(models, "generative").map((m) => m.name)).toEqual(["chat_demo"]);
    expect(servedFor(models, "classification")).toBe(models);
  });
});

describe("LLM endpoints as targets", () => {
  const endpoints = [
    { name: "gpt-judge", model: "gpt-4o-mini", timeoutS: 30, tokensPerUserPerDay: 0, tokensPerTaskPerDay: 5000 },
    { name: "local", model: "tiny", timeoutS: 10, tokensPerUserPerDay: 100, tokensPerTaskPerDay: 0 },
  ];
  const options = targetOptions({ targets: [served("chat_demo", { kind: null })], submissions: data.submissions }, endpoints);

  it("are listed between the served models and the submissions, choosable, with their model", () => {
    expect(options.map((o) => [o.key, o.source, o.choosable, o.model])).toEqual([
      ["served:chat_demo", "served", true, null],
      ["endpoint:gpt-judge", "endpoint", true, "gpt-4o-mini"],
      ["endpoint:local", "endpoint", true, "tiny"],
      ["submission:TW9kZWw6Nw==", "submission", true, null],
    ]);
    expect(anyChoosable(targetOptions({ targets: [], submissions: [] }, endpoints))).toBe(true);
  });

  it("are sent as {endpoint: name}, beside the other kinds, in the list's order", () => {
    expect(chosenTargets(options, ["endpoint:local", "served:chat_demo"])).toEqual([
      { name: "chat_demo", version: "3" },
      { endpoint: "local" },
    ]);
    // One disabled since the list was read is no longer listed, so it is not sent.
    expect(keepChosen(targetOptions({ targets: [], submissions: [] }, endpoints.slice(1)), ["endpoint:gpt-judge", "endpoint:local"])).toEqual([
      "endpoint:local",
    ]);
  });

  it("are told apart in a round's targets by their stored name", () => {
    expect(endpointOfTarget("endpoint:gpt-judge")).toBe("gpt-judge");
    expect(endpointOfTarget("sentiment_minilm")).toBeNull();
    expect(endpointOfTarget("endpoints_model")).toBeNull();
  });
});
