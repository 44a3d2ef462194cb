/**
 * A generative round's attack success, loaded on first use (its own chunk, precached, so offline too): the chat page
 * and the task owner page render these for generative tasks only.
 */
import { lazyWidget } from "../lib/lazy";
import type { OwnerAttackSuccessProps } from "./OwnerAttackSuccess";
import type { RoundAttackStatsProps } from "./RoundAttackStats";

export const LazyRoundAttackStats = lazyWidget<RoundAttackStatsProps>(() => import("./RoundAttackStats").then((m) => m.RoundAttackStats));
export const LazyOwnerAttackSuccess = lazyWidget<OwnerAttackSuccessProps>(() =>
  import("./OwnerAttackSuccess").then((m) => m.OwnerAttackSuccess),
);
