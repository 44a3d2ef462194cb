/** Pure rules of the account pages: the token a mailed link carries, and a new password's checks before sending. */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** The token of a link `#/reset-password?token=…` (or pasted on its own); null when there is none. */
export function linkToken(query: URLSearchParams, pasted = ""): string | null {
  const raw = (pasted.trim() || query.get("token") || "").trim();
  const fromLink = raw.match(/[?&]token=([^&\s]+)/);
  const token = fromLink ? decodeURIComponent(fromLink[1]) : raw;
  return /^[0-9a-f]{16}\.[A-Za-z0-9_-]+$/.test(token) ? token : null;
}

export type PasswordProblem = "length" | "mismatch";

/** What is wrong with a new password and its repetition (the server checks the same length rule). */
export function passwordProblem(password: string, repeated: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return "length";
  if (password !== repeated) return "mismatch";
  return null;
}
