/** A task's owners: the tokens its conversations spent on LLM endpoints and their estimated cost (shown once there is
 * some: a task that never used an endpoint gets no card). The table is the admins' one, for this task only. */
import { UsageTable } from "../admin/llm/UsageTable";

export function GenerationUsageCard({ code }: { code: string }) {
  return <UsageTable taskCode={code} hideWhenEmpty />;
}
