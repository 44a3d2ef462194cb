import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { markReachable, markUnreachable, online, PROBE_FIRST_MS, PROBE_PATH, reconnected } from "./network";

describe("after a failed request", () => {
  let browserOnline = true;
  beforeEach(() => {
    vi.useFakeTimers();
    browserOnline = true;
    vi.stubGlobal("window", {});
    vi.stubGlobal("navigator", { get onLine() { return browserOnline; } });
    markReachable();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("probes the API until it answers, then is online again and says so", async () => {
    const answers = [new Error("refused"), new Response("{}", { status: 503 }), new Response("{}", { status: 200 })];
    const fetched: string[] = [];
    vi.stubGlobal("fetch", (path: string) => {
      fetched.push(path);
      const next = answers.shift()!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    });
    const back = vi.fn();
    const stop = reconnected.on(back);
    markUnreachable();
    expect(online.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS); // refused
    await vi.advanceTimersByTimeAsync(2 * PROBE_FIRST_MS); // 503
    expect(online.get()).toBe(false);
    await vi.advanceTimersByTimeAsync(4 * PROBE_FIRST_MS); // answers
    expect(online.get()).toBe(true);
    expect(back).toHaveBeenCalledTimes(1);
    expect(fetched).toEqual([PROBE_PATH, PROBE_PATH, PROBE_PATH]);
    stop();
  });

  it("does not probe while the browser says it is offline, nor once a request succeeded", async () => {
    const fetchSpy = vi.fn(() => Promise.resolve(new Response("{}", { status: 200 })));
    vi.stubGlobal("fetch", fetchSpy);
    browserOnline = false;
    markUnreachable();
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS * 2);
    expect(fetchSpy).not.toHaveBeenCalled();
    browserOnline = true;
    markUnreachable();
    markReachable(); // a request succeeded before the probe was due
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS * 2);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
