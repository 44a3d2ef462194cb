/**
 * A generative task's `generative` block (docs/task-config.md, "Generative tasks") as the chat reads it, with the
 * server's defaults (server/tasks/generative_config.py) for what a config leaves out. Pure functions.
 */
import type { TaskConfig } from "../api/types";

export interface JudgeSettings {
  model: string;
  label: string;
  threshold: number;
}

/** fooling `validator_rating`: the validator field every vote rates in, and the value from which a rating says "failed". */
export interface RatingSettings {
  field: string;
  threshold: number;
}

/** Who decides whether the model failed: the author (ask_user), the judge model (judge_model), validators' ratings. */
export type Decider = "author" | "judge" | "validators";

export interface GenerativeSettings {
  mode: "prompt" | "chat";
  /** How many messages one conversation takes (1 in prompt mode). */
  turnLimit: number;
  systemPrompt: string;
  goal: string;
  categories: string[];
  maxMessageLength: number;
  /** The judge when the task is judged by one (fooling `judge_model`); null when the author says (ask_user). */
  judge: JudgeSettings | null;
  decider: Decider;
  /** The rating rule when validators' ratings decide (fooling `validator_rating`, config `generative.rating`). */
  rating: RatingSettings | null;
}

const DEFAULTS = { maxTurns: 5, maxMessageLength: 2000, threshold: 0.5 };

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const positiveInt = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;

export function generativeOf(config: TaskConfig): GenerativeSettings {
  const g = asObject(config.generative);
  const mode = g.mode === "prompt" ? "prompt" : "chat";
  const metric = asObject(config.fooling).metric;
  const judge = asObject(g.judge);
  const judged = metric === "judge_model" && typeof judge.model === "string";
  const rating = asObject(g.rating);
  const rated = metric === "validator_rating";
  return {
    mode,
    turnLimit: mode === "prompt" ? 1 : positiveInt(g.max_turns, DEFAULTS.maxTurns),
    systemPrompt: typeof g.system_prompt === "string" ? g.system_prompt : "",
    goal: typeof g.goal === "string" ? g.goal : "",
    categories: Array.isArray(g.attack_categories) ? g.attack_categories.filter((c): c is string => typeof c === "string") : [],
    maxMessageLength: positiveInt(g.max_message_length, DEFAULTS.maxMessageLength),
    judge: judged
      ? {
          model: judge.model as string,
          label: typeof judge.label === "string" ? judge.label : "",
          threshold: typeof judge.threshold === "number" ? judge.threshold : DEFAULTS.threshold,
        }
      : null,
    decider: judged ? "judge" : rated ? "validators" : "author",
    rating: rated && typeof rating.field === "string" && typeof rating.threshold === "number"
      ? { field: rating.field, threshold: rating.threshold }
      : null,
  };
}
