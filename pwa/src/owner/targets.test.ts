import { describe, expect, it } from "vitest";
import type { ServedModel, ServedTargets } from "./create/documents";
import { anyChoosable, chosenTargets, keepChosen, servedFor, servedKind, targetOptions } from "./targets";

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
