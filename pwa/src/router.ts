/**
 * Hash routing (#/tasks/sentiment): deep links work from any static host and from the service
 * worker's cached shell, with no server-side fallback needed. Routes are declared in routes.tsx;
 * each feature adds its own entries there.
 */
import { useEffect, useState } from "preact/hooks";

export interface Match {
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
}

export function currentPath(): string {
  const hash = window.location.hash.replace(/^#/, "");
  return hash.startsWith("/") ? hash : "/";
}

export function parse(pathWithQuery: string): { path: string; query: URLSearchParams } {
  const [path, query = ""] = pathWithQuery.split("?", 2);
  return { path: path || "/", query: new URLSearchParams(query) };
}

/** Match "/tasks/:code" against "/tasks/nli" → {code: "nli"}; null when it does not match. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

export function href(path: string): string {
  return `#${path}`;
}

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = href(path);
  if (options.replace) window.location.replace(url);
  else window.location.hash = path;
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const onChange = () => setPath(currentPath());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return path;
}
