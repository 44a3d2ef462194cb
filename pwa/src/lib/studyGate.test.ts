import { describe, expect, it } from "vitest";
import { STUDY_KEY, storedStudy, studyRedirect } from "./studyGate";

const study = { path: "/join/ABC?PROLIFIC_PID=p1&STUDY_ID=s&SESSION_ID=x", username: "worker-1" };

describe("study gate", () => {
  it("sends the campaign's account back to the campaign from any other address", () => {
    expect(studyRedirect(study, "worker-1", "/examples")).toBe(study.path);
    expect(studyRedirect(study, "worker-1", "/")).toBe(study.path);
    expect(studyRedirect(study, "worker-1", "/join/ABC")).toBeNull(); // its own page, whatever the parameters
  });
  it("lets everyone else go anywhere", () => {
    expect(studyRedirect(study, "someone-else", "/examples")).toBeNull();
    expect(studyRedirect(study, undefined, "/examples")).toBeNull();
    expect(studyRedirect(null, "worker-1", "/examples")).toBeNull();
  });
  it("reads only a well-formed record", () => {
    const storage = (value: string | null) => ({ getItem: (key: string) => (key === STUDY_KEY ? value : null) });
    expect(storedStudy(storage(JSON.stringify(study)))).toEqual(study);
    expect(storedStudy(storage("{not json"))).toBeNull();
    expect(storedStudy(storage(JSON.stringify({ path: 3 })))).toBeNull();
    expect(storedStudy(storage(null))).toBeNull();
  });
});
