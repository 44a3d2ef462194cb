// postWithProgress against a stand-in XMLHttpRequest (node has none): progress, the answer, errors, abort.
import { afterEach, describe, expect, it, vi } from "vitest";
import { postWithProgress } from "./xhr";

class FakeXhr {
  static last: FakeXhr;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = "";
  headers: Record<string, string> = {};
  sent: unknown = null;
  opened: string[] = [];
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.opened = [method, url];
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return "application/json";
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.onabort?.();
  }
}

afterEach(() => vi.unstubAllGlobals());

describe("postWithProgress", () => {
  it("reports upload progress and answers with a Response", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const seen: [number, number][] = [];
    const body = new FormData();
    const answer = postWithProgress("/graphql", body, { Authorization: "Bearer t" }, new AbortController().signal, (s, t) => seen.push([s, t]));
    const xhr = FakeXhr.last;
    expect(xhr.opened).toEqual(["POST", "/graphql"]);
    expect(xhr.headers).toEqual({ Authorization: "Bearer t" });
    expect(xhr.sent).toBe(body);
    xhr.upload.onprogress?.({ loaded: 10, total: 100, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 20, total: 0, lengthComputable: false });
    xhr.status = 200;
    xhr.responseText = '{"data":{"ok":true}}';
    xhr.onload?.();
    const response = await answer;
    expect(seen).toEqual([[10, 100], [20, 0]]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { ok: true } });
  });

  it("fails like fetch when no answer came", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const answer = postWithProgress("/graphql", new FormData(), {}, new AbortController().signal, () => {});
    FakeXhr.last.onerror?.();
    await expect(answer).rejects.toBeInstanceOf(TypeError);
  });

  it("aborts with an AbortError when the signal fires", async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const controller = new AbortController();
    const answer = postWithProgress("/graphql", new FormData(), {}, controller.signal, () => {});
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: "AbortError" });
  });
});
