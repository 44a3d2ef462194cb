/** Tiny inline icons for the tab bar and header (24×24, stroked with the text colour; decorative). */
import type { NavKey } from "./nav";

export type IconName = NavKey | "more" | "account" | "bell";

const PATHS: Record<IconName, string> = {
  tasks: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
  validate: "M4 12l5 5L20 6",
  examples: "M14 3H6v18h12V7zM14 3v4h4M9 12h6M9 16h6",
  outbox: "M12 15V3M7 8l5-5 5 5M4 15v5h16v-5",
  models: "M12 3l8 4.5v9L12 21l-8-4.5v-9zM12 12l8-4.5M12 12v9M12 12L4 7.5",
  leaderboard: "M6 20V12M12 20V4M18 20v-6",
  owner: "M4 7h16v12H4zM9 7V4h6v3",
  admin: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  account: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c1-4 4-6 8-6s7 2 8 6",
  bell: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
};

export function Icon({ name }: { name: IconName }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}
