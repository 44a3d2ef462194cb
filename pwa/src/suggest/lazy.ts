/**
 * Suggestions' panels, each loaded on first use (their own chunk, precached, so offline too): the annotate and chat
 * pages show "Inspire me" when the task's config offers suggestions, the task owner page the numbers with and without.
 */
import { lazyWidget } from "../lib/lazy";
import type { InspirePanelProps } from "./InspirePanel";
import type { OwnerAssistanceProps } from "./OwnerAssistance";

export const LazyInspirePanel = lazyWidget<InspirePanelProps>(() => import("./InspirePanel").then((m) => m.InspirePanel));
export const LazyOwnerAssistance = lazyWidget<OwnerAssistanceProps>(() => import("./OwnerAssistance").then((m) => m.OwnerAssistance));
