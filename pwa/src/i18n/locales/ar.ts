/** The ar catalog: every area's table, in one lazy chunk (only the chosen locale is downloaded). */
import { account } from "../../account/text.ar";
import { attack } from "../../attack/text.ar";
import { battle } from "../../battle/text.ar";
import { admin } from "../../admin/text.ar";
import { network } from "../../api/text.ar";
import { auth } from "../../auth/text.ar";
import { forms } from "../../forms/text.ar";
import { inbox } from "../../inbox/text.ar";
import { join } from "../../join/text.ar";
import { leaderboard } from "../../leaderboard/text.ar";
import { browse } from "../../owner/browse/text.ar";
import { campaigns } from "../../owner/campaigns/text.ar";
import { create } from "../../owner/create/text.ar";
import { webhooks } from "../../owner/webhooks/text.ar";
import { annotate } from "../../annotate/text.ar";
import { chat } from "../../chat/text.ar";
import { models } from "../../models/text.ar";
import { offline } from "../../offline/text.ar";
import { examples, outboxPage } from "../../outbox/page.ar";
import { claims, votes } from "../../outbox/text.ar";
import { settings } from "../../owner/settings/text.ar";
import { owner } from "../../owner/text.ar";
import { transcript } from "../../transcript/text.ar";
import { suggest } from "../../suggest/text.ar";
import { runs } from "../../owner/runs/text.ar";
import { training } from "../../owner/training/text.ar";
import { shell } from "../../ui/text.ar";
import { exampleView, validate } from "../../validate/text.ar";
import type { LocaleCatalog } from "../catalogs";
import { i18n } from "../text.ar";

const catalog: LocaleCatalog = { account, attack, battle, admin, auth, forms, inbox, join, leaderboard, browse, campaigns, create, webhooks, i18n,
  annotate, chat, transcript, validate, exampleView, claims, votes, models, offline, settings, owner, shell, outboxPage,
  examples,
  network,
  suggest,
  runs,
  training,
};
export default catalog;
