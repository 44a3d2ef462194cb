/**
 * A battle's pure rules: each side's reply accumulating from its replyStream (the first event of a subscription
 * carries the whole text so far, later ones the new text, the last `done` with the outcome), what the live region says
 * (once per side, when its reply is complete, never per token), when a vote may be sent, the vote choices' labels and
 * the names revealed after the vote.
 */
import type { ErrorResult, TaskConfig } from "../api/types";
import type { ReplyChunk, ReplyStatus } from "../chat/stream";
import { fieldTitle, parseValidatorFields, type FieldSpec } from "../forms/specs";
import { BATTLE_TEXT as T } from "./text";

export type BattleChoice = "A" | "B" | "C" | "D" | "TIE" | "BOTH_BAD";

export interface BattleSide {
  label: string;
  turnId: string;
  reply: string;
  status: ReplyStatus;
  error: string;
  modelName: string | null;
  modelVersion: string | null;
  /** The reply reached the platform's length bound (known from its stream's end only). */
  truncated?: boolean;
  /** The author's rating of this side on the task's form, given with the vote. */
  rating?: number | null;
  /** After the vote: the author may go on talking to this side (continueBattle). */
  continuable?: boolean;
  /** Once continued: its conversation. */
  conversationId?: string | null;
}

export interface Battle {
  id: string;
  roundId: string;
  contextId: string;
  prompt: string;
  createdAt: string;
  choices: BattleChoice[];
  votable: boolean;
  vote: { choice: BattleChoice; createdAt: string } | null;
  /** The task's validator field each side is rated in with the vote; null when it rates none. */
  ratingField?: string | null;
  sides: BattleSide[];
}

/** The side after one event of its stream (`first`: the subscription's first event, replacing the text). A finished
 * side ignores events, so a late duplicate of the end cannot append its text twice. */
export function applySideChunk(side: BattleSide, chunk: ReplyChunk, first: boolean): BattleSide {
  if (chunk.turnId !== side.turnId || side.status !== "GENERATING") return side;
  const reply = first ? chunk.text : side.reply + chunk.text;
  if (!chunk.done) return { ...side, reply };
  return { ...side, reply, status: chunk.status, error: chunk.error, truncated: chunk.truncated };
}

/** The battle with `side` in its place (by turn id). */
export function withSide(battle: Battle, side: BattleSide): Battle {
  return { ...battle, sides: battle.sides.map((s) => (s.turnId === side.turnId ? side : s)) };
}

/** A re-read battle, keeping what only the streams told: a truncated reply, and the text of a reply still being
 * written (its stream is ahead of the stored text). */
export function rereadBattle(before: Battle | null, stored: Battle): Battle {
  if (!before || before.id !== stored.id) return stored;
  return {
    ...stored,
    sides: stored.sides.map((s) => {
      const old = before.sides.find((o) => o.turnId === s.turnId);
      if (!old) return s;
      if (s.status === "GENERATING") return old.status === "GENERATING" ? { ...s, reply: old.reply } : s;
      return old.truncated ? { ...s, truncated: true } : s;
    }),
  };
}

export function writingSides(battle: Battle | null): BattleSide[] {
  return battle?.sides.filter((s) => s.status === "GENERATING") ?? [];
}

/** A vote may be sent once every reply has ended and none was sent (the server's `votable`, checked here too). */
export function canVote(battle: Battle | null): boolean {
  return !!battle && !battle.vote && battle.sides.length > 0 && writingSides(battle).length === 0;
}

/** A vote choice as the voter reads it: "A is better", "Tie", "Both are bad" (with 3–4 sides: "All are bad"). */
export function choiceLabel(choice: BattleChoice, sides: number): string {
  if (choice === "TIE") return T.tie;
  if (choice === "BOTH_BAD") return sides > 2 ? T.allBad : T.bothBad;
  return T.better(choice);
}

/** The choices offered (the server's order: sides first, then tie and both bad), each with its label. */
export function voteOptions(battle: Battle): { choice: BattleChoice; label: string }[] {
  return battle.choices.map((choice) => ({ choice, label: choiceLabel(choice, battle.sides.length) }));
}

/** What a side turned out to be, once the battle is voted (null before: nothing names a model until then). */
export function revealText(side: BattleSide): string | null {
  if (!side.modelName) return null;
  return side.modelVersion ? T.revealed(side.label, side.modelName, side.modelVersion) : T.revealedNoVersion(side.label, side.modelName);
}

// ---- The live region ----------------------------------------------------------------------------------------------

export interface Announcement {
  key: string; // one side of one battle
  text: string;
}

export const KEPT_ANNOUNCEMENTS = 4;

export function sideAnnouncement(side: BattleSide): string | null {
  switch (side.status) {
    case "GENERATING":
      return null;
    case "DONE":
      return side.reply.trim() ? T.announceReplied(side.label, side.reply) : T.announceEmpty(side.label);
    case "STOPPED":
      return T.announceStopped(side.label);
    case "FAILED":
      return T.announceFailed(side.label, side.error || T.failedNoReason);
  }
}

/** The live region's log after a side changed: a side seen writing that has now ended is said once; anything else
 * (a reply already ended when the page loaded, a second event of the same end) leaves the log as it was. */
export function announceSide(log: Announcement[], before: BattleSide | undefined, after: BattleSide): Announcement[] {
  if (!before || before.status !== "GENERATING" || after.status === "GENERATING") return log;
  const text = sideAnnouncement(after);
  if (text === null || log.some((a) => a.key === after.turnId)) return log;
  return [...log, { key: after.turnId, text }].slice(-KEPT_ANNOUNCEMENTS);
}

// ---- Ratings, continuing, refusals ----------------------------------------------------------------------------------

/** The form field each side is rated in (`generative.battle.rating_field`, a rating or number validator field), or
 * null when the task rates no side. */
export function ratingSpec(config: TaskConfig): FieldSpec | null {
  const g = (config as Record<string, unknown>).generative;
  const b = typeof g === "object" && g !== null ? (g as Record<string, unknown>).battle : null;
  const name = typeof b === "object" && b !== null ? (b as Record<string, unknown>).rating_field : null;
  if (typeof name !== "string") return null;
  const spec = parseValidatorFields(config).find((f) => f.name === name);
  return spec && (spec.type === "rating" || spec.type === "number") ? spec : null;
}

/** The values a rating control offers: 1..scale for a rating field; null for a number field (a number input). */
export function ratingValues(spec: FieldSpec): number[] | null {
  return spec.type === "rating" ? Array.from({ length: spec.scale }, (_, i) => i + 1) : null;
}

/** What the rating control says about its range: "1 (worst) to 5 (best)", or a number field's range. */
export function ratingHint(spec: FieldSpec): string {
  if (spec.type === "rating") return T.rateScale(spec.scale);
  return T.rateRange(spec.min ?? 0, spec.max ?? 0);
}

export function ratingName(spec: FieldSpec): string {
  return fieldTitle(spec);
}

/** The ratings to send (one per side, in order) once every side has one; null while one is missing. */
export function completeRatings(sides: BattleSide[], ratings: Record<string, number | null | undefined>): number[] | null {
  const values = sides.map((s) => ratings[s.label]);
  return values.every((v): v is number => typeof v === "number" && Number.isFinite(v)) ? values : null;
}

/** "Continue with Model A (name)": a continuable side once the battle is voted (its name is then known). */
export function continueText(side: BattleSide): string {
  return T.continueWith(side.label, side.modelName ?? "");
}

export function continuableSides(battle: Battle | null): BattleSide[] {
  return battle?.vote ? battle.sides.filter((s) => s.continuable) : [];
}

/** A refusal as shown: its message, and for a rate limit the seconds to wait. */
export function refusalText(result: ErrorResult & { retryAfterSeconds?: number | null }): string {
  const wait = result.__typename === "RateLimitedError" ? result.retryAfterSeconds : null;
  return typeof wait === "number" && wait > 0 ? `${result.message} ${T.retryIn(Math.ceil(wait))}` : result.message;
}

/** An InputError's fields as the voter reads them: a side's rating problem names the side ("Model B: …"). */
export function voteProblems(fields: { field: string; message: string }[]): string {
  return fields
    .map((f) => {
      const side = /^ratings\.(\d)$/.exec(f.field);
      return side ? `${T.rateSide("ABCD"[Number(side[1])] ?? "?")}: ${f.message}` : f.message;
    })
    .join(" ");
}
