/** The es catalog: every area's table, in one lazy chunk (only the chosen locale is downloaded). */
import { account } from "../../account/text.es";
import { attack } from "../../attack/text.es";
import { battle } from "../../battle/text.es";
import { admin } from "../../admin/text.es";
import { network } from "../../api/text.es";
import { auth } from "../../auth/text.es";
import { forms } from "../../forms/text.es";
import { inbox } from "../../inbox/text.es";
import { join } from "../../join/text.es";
import { leaderboard } from "../../leaderboard/text.es";
import { browse } from "../../owner/browse/text.es";
import { campaigns } from "../../owner/campaigns/text.es";
import { create } from "../../owner/create/text.es";
import { webhooks } from "../../owner/webhooks/text.es";
import { annotate } from "../../annotate/text.es";
import { chat } from "../../chat/text.es";
import { models } from "../../models/text.es";
import { offline } from "../../offline/text.es";
import { examples, outboxPage } from "../../outbox/page.es";
import { claims, votes } from "../../outbox/text.es";
import { settings } from "../../owner/settings/text.es";
import { owner } from "../../owner/text.es";
import { transcript } from "../../transcript/text.es";
import { suggest } from "../../suggest/text.es";
import { runs } from "../../owner/runs/text.es";
import { training } from "../../owner/training/text.es";
import { shell } from "../../ui/text.es";
import { exampleView, validate } from "../../validate/text.es";
import type { LocaleCatalog } from "../catalogs";
import { i18n } from "../text.es";

const catalog: LocaleCatalog = { account, attack, battle, admin, auth, forms, inbox, join, leaderboard, browse, campaigns, create, webhooks, i18n,
  annotate, chat, transcript, validate, exampleView, claims, votes, models, offline, settings, owner, shell, outboxPage,
  examples,
  network,
  suggest,
  runs,
  training,
};
export default catalog;
