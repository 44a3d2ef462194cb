/** The fr catalog: every area's table, in one lazy chunk (only the chosen locale is downloaded). */
import { account } from "../../account/text.fr";
import { attack } from "../../attack/text.fr";
import { battle } from "../../battle/text.fr";
import { admin } from "../../admin/text.fr";
import { network } from "../../api/text.fr";
import { auth } from "../../auth/text.fr";
import { forms } from "../../forms/text.fr";
import { inbox } from "../../inbox/text.fr";
import { join } from "../../join/text.fr";
import { leaderboard } from "../../leaderboard/text.fr";
import { browse } from "../../owner/browse/text.fr";
import { campaigns } from "../../owner/campaigns/text.fr";
import { create } from "../../owner/create/text.fr";
import { webhooks } from "../../owner/webhooks/text.fr";
import { annotate } from "../../annotate/text.fr";
import { chat } from "../../chat/text.fr";
import { models } from "../../models/text.fr";
import { offline } from "../../offline/text.fr";
import { examples, outboxPage } from "../../outbox/page.fr";
import { claims, votes } from "../../outbox/text.fr";
import { settings } from "../../owner/settings/text.fr";
import { owner } from "../../owner/text.fr";
import { transcript } from "../../transcript/text.fr";
import { suggest } from "../../suggest/text.fr";
import { runs } from "../../owner/runs/text.fr";
import { training } from "../../owner/training/text.fr";
import { shell } from "../../ui/text.fr";
import { exampleView, validate } from "../../validate/text.fr";
import type { LocaleCatalog } from "../catalogs";
import { i18n } from "../text.fr";

const catalog: LocaleCatalog = { account, attack, battle, admin, auth, forms, inbox, join, leaderboard, browse, campaigns, create, webhooks, i18n,
  annotate, chat, transcript, validate, exampleView, claims, votes, models, offline, settings, owner, shell, outboxPage,
  examples,
  network,
  suggest,
  runs,
  training,
};
export default catalog;
