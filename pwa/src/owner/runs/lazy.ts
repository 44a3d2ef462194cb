/** The owner's adversary runs panel, loaded on first use (its own chunk, precached). */
import { lazyWidget } from "../../lib/lazy";
import type { RunsPanelProps } from "./RunsPanel";

export const LazyRunsPanel = lazyWidget<RunsPanelProps>(() => import("./RunsPanel").then((m) => m.RunsPanel));
