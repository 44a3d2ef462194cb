/** Whether a task takes side-by-side battles: a generative task whose config has a `generative.battle` block
 * (server/tasks/generative_config.py BattleConfig). Pure, without imports: the annotate page reads it. */
import type { TaskConfig } from "../api/types";

export function hasBattle(config: TaskConfig): boolean {
  const g = config.generative;
  if (config.kind !== "generative" || typeof g !== "object" || g === null || Array.isArray(g)) return false;
  const b = (g as Record<string, unknown>).battle;
  return typeof b === "object" && b !== null && !Array.isArray(b);
}
