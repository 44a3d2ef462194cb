/**
 * The campaign page's progress list (pure; unit-tested in progress.test.ts): each count of `Campaign.progress` with
 * the share it is of the step before it (consented of joined, fooling of examples, …), for a phone-sized list.
 */
export interface CampaignProgress {
  joined: number;
  consented: number;
  quizPassed: number;
  quizFailed: number;
  finished: number;
  examples: number;
  fooling: number;
  validatedFooling: number;
  validations: number;
}

export type ProgressName = keyof CampaignProgress;

/** Each count and what its share is taken of (null: a plain count). */
const OF: Record<ProgressName, ProgressName | null> = {
  joined: null,
  consented: "joined",
  quizPassed: "consented",
  quizFailed: "consented",
  finished: "joined",
  examples: null,
  fooling: "examples",
  validatedFooling: "fooling",
  validations: null,
};

export const PROGRESS_NAMES = Object.keys(OF) as ProgressName[];

export interface ProgressRow {
  name: ProgressName;
  count: number;
  percent: number | null; // whole percent of the base count; null without a base (or a base of 0)
  quiz: boolean; // a quiz count (hidden when the campaign has no quiz)
}

export function progressRows(progress: CampaignProgress, hasQuiz: boolean): ProgressRow[] {
  return PROGRESS_NAMES.map((name) => {
    const base = OF[name];
    const total = base === null ? 0 : progress[base];
    return {
      name,
      count: progress[name],
      percent: total > 0 ? Math.round((progress[name] / total) * 100) : null,
      quiz: name === "quizPassed" || name === "quizFailed",
    };
  }).filter((row) => hasQuiz || !row.quiz);
}
