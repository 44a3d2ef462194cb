/**
 * The shape of a locale's catalog: for every area's English table, the same keys with the same types — plain
 * strings stay strings, functions keep their parameters, nested tables keep their keys. A missing or extra key, or
 * a function with other parameters, is a type error (and catalogs.test.ts checks the same at run time).
 */
import type { ACCOUNT_EN } from "../account/text";
import type { ADMIN_EN } from "../admin/text";
import type { ATTACK_EN } from "../attack/text";
import type { BATTLE_EN } from "../battle/text";
import type { NETWORK_EN } from "../api/text";
import type { AUTH_EN } from "../auth/text";
import type { FORM_EN } from "../forms/text";
import type { INBOX_EN } from "../inbox/text";
import type { JOIN_EN } from "../join/text";
import type { LEADERBOARD_EN } from "../leaderboard/text";
import type { BROWSE_EN } from "../owner/browse/text";
import type { CAMPAIGN_EN } from "../owner/campaigns/text";
import type { CREATE_EN } from "../owner/create/text";
import type { WEBHOOK_EN } from "../owner/webhooks/text";
import type { ANNOTATE_EN } from "../annotate/text";
import type { CHAT_EN } from "../chat/text";
import type { MODELS_EN } from "../models/text";
import type { OFFLINE_EN } from "../offline/text";
import type { EXAMPLES_EN } from "../examples/text";
import type { CLAIM_EN } from "../outbox/claims";
import type { OUTBOX_PAGE_EN } from "../outbox/text";
import type { VOTE_EN } from "../outbox/validations";
import type { SETTINGS_EN } from "../owner/settings/text";
import type { OWNER_EN } from "../owner/text";
import type { TRANSCRIPT_EN } from "../transcript/text";
import type { SUGGEST_EN } from "../suggest/text";
import type { RUNS_EN } from "../owner/runs/text";
import type { TRAINING_EN } from "../owner/training/text";
import type { SHELL_EN } from "../ui/text";
import type { EXAMPLE_VIEW_EN, VALIDATE_EN } from "../validate/text";
import type { I18N_EN } from "./text";

export interface EnglishCatalogs {
  account: typeof ACCOUNT_EN;
  admin: typeof ADMIN_EN;
  attack: typeof ATTACK_EN;
  battle: typeof BATTLE_EN;
  auth: typeof AUTH_EN;
  forms: typeof FORM_EN;
  inbox: typeof INBOX_EN;
  join: typeof JOIN_EN;
  leaderboard: typeof LEADERBOARD_EN;
  browse: typeof BROWSE_EN;
  campaigns: typeof CAMPAIGN_EN;
  create: typeof CREATE_EN;
  webhooks: typeof WEBHOOK_EN;
  i18n: typeof I18N_EN;
  annotate: typeof ANNOTATE_EN;
  chat: typeof CHAT_EN;
  transcript: typeof TRANSCRIPT_EN;
  validate: typeof VALIDATE_EN;
  exampleView: typeof EXAMPLE_VIEW_EN;
  claims: typeof CLAIM_EN;
  votes: typeof VOTE_EN;
  models: typeof MODELS_EN;
  offline: typeof OFFLINE_EN;
  settings: typeof SETTINGS_EN;
  owner: typeof OWNER_EN;
  shell: typeof SHELL_EN;
  outboxPage: typeof OUTBOX_PAGE_EN;
  examples: typeof EXAMPLES_EN;
  network: typeof NETWORK_EN;
  suggest: typeof SUGGEST_EN;
  runs: typeof RUNS_EN;
  training: typeof TRAINING_EN;
}

export type Domain = keyof EnglishCatalogs;

type Text<V> = V extends string
  ? string
  : V extends (...args: infer A) => string
    ? (...args: A) => string
    : { readonly [K in keyof V]: Text<V[K]> };

export type Translation<T> = { readonly [K in keyof T]: Text<T[K]> };

export type LocaleCatalog = { readonly [D in Domain]: Translation<EnglishCatalogs[D]> };
