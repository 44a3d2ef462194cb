/** Pure helpers of the admin pages (no I/O): reasons, filters, pages and error text. */
import { currentLocale } from "../i18n/runtime";
import type { ErrorResult } from "../api/types";
import type { AuditAction, Connection, UserRole } from "./documents";

export const REASON_MAX = 500; // server/admin/audit.py REASON_MAX

export type ReasonProblem = "missing" | "long" | null;

/** Why a reason (or note) cannot be sent yet, or null. */
export function reasonProblem(reason: string, required: boolean): ReasonProblem {
  const text = reason.trim();
  if (required && !text) return "missing";
  if (text.length > REASON_MAX) return "long";
  return null;
}

export type RoleFilter = "" | UserRole;
export type StateFilter = "" | "active" | "disabled";

/** The adminUsers variables for the page's filters (empty means "any"). */
export function userFilters(search: string, role: RoleFilter, state: StateFilter) {
  return {
    search: search.trim() || null,
    role: role || null,
    disabled: state === "" ? null : state === "disabled",
  };
}

/** The audit log's variables for its filters. */
export function auditFilters(action: "" | AuditAction, actor: string) {
  return { action: action || null, actor: actor.trim() || null };
}

/** A list grown by one more page of a connection (`previous` null: the first page). */
export function appendPage<T>(previous: T[] | null, page: Connection<T>): T[] {
  return [...(previous ?? []), ...page.edges.map((e) => e.node)];
}

/** One item replaced by its new version (matched by id). */
export function replaceById<T extends { id: string }>(list: T[], item: T): T[] {
  return list.map((old) => (old.id === item.id ? item : old));
}

/** A typed API error as one line (its field problems after the message). */
export function errorLine(result: ErrorResult): string {
  const fields = result.fields?.map((f) => `${f.field}: ${f.message}`).join("; ");
  return fields ? `${result.message} (${fields})` : result.message;
}

/** A timestamp for people: the date and time in their locale. */
export function when(iso: string | null, locale: string = currentLocale()): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}

/** Whether an error thrown by the client is the server's "admins only" refusal. */
export function isForbidden(codes: readonly string[] | undefined): boolean {
  return !!codes && codes.includes("FORBIDDEN");
}
