/**
 * Every page of the app. Each feature adds its routes here; the header and the phone's tab bar list the sections
 * (pwa/src/ui/nav.ts): validate/ (validators), models/ + leaderboard/ (researchers), owner/ (task owners).
 */
import type { ComponentType } from "preact";
import { LoginPage } from "./auth/LoginPage";
import { TaskListPage } from "./tasks/TaskListPage";
import { lazyPage, prefetchWhenIdle } from "./lib/lazy";
import type { TitleKey } from "./ui/text";

// Separate chunks, loaded on first use (the base bundle has a budget: pwa/scripts/bundle-size.mjs). The annotate
// page, fetched as soon as the browser is idle after start-up; validators' pages, leaderboards, my examples, the
// outbox page; the owners' pages (their English strings stay out of the entry), crowd
// workers' join flow, owners' campaign pages.
const loadAnnotate = () => import("./annotate/AnnotatePage").then((m) => m.AnnotatePage);
const AnnotatePage = lazyPage<PageProps>(loadAnnotate);
prefetchWhenIdle(loadAnnotate);
const ValidateIndexPage = lazyPage<PageProps>(() => import("./validate/ValidatePage").then((m) => m.ValidateIndexPage));
const ValidatePage = lazyPage<PageProps>(() => import("./validate/ValidatePage").then((m) => m.ValidatePage));
const LeaderboardIndexPage = lazyPage<PageProps>(() => import("./leaderboard/LeaderboardPage").then((m) => m.LeaderboardIndexPage));
const LeaderboardPage = lazyPage<PageProps>(() => import("./leaderboard/LeaderboardPage").then((m) => m.LeaderboardPage));
// A battle task's leaderboard: ratings with intervals from people's blind votes (pwa/src/battle/board/).
const BattleBoardPage = lazyPage<PageProps>(() => import("./battle/board/BoardPage").then((m) => m.BattleBoardPage));
const MyExamplesPage = lazyPage<PageProps>(() => import("./examples/MyExamplesPage").then((m) => m.MyExamplesPage));
const OutboxPage = lazyPage<PageProps>(() => import("./outbox/OutboxPage").then((m) => m.OutboxPage));
const OwnerIndexPage = lazyPage<PageProps>(() => import("./owner/OwnerPage").then((m) => m.OwnerIndexPage));
const OwnerTaskPage = lazyPage<PageProps>(() => import("./owner/OwnerPage").then((m) => m.OwnerTaskPage));
const JoinPage = lazyPage<PageProps>(() => import("./join/JoinPage").then((m) => m.JoinPage));
const CampaignsPage = lazyPage<PageProps>(() => import("./owner/campaigns/CampaignsPage").then((m) => m.CampaignsPage));
const CampaignPage = lazyPage<PageProps>(() => import("./owner/campaigns/CampaignPage").then((m) => m.CampaignPage));
// Owners look through a round's examples and the task's flag queue (pwa/src/owner/browse/).
const BrowsePage = lazyPage<PageProps>(() => import("./owner/browse/BrowsePage").then((m) => m.BrowsePage));
const FlagQueuePage = lazyPage<PageProps>(() => import("./owner/browse/BrowsePage").then((m) => m.FlagQueuePage));
// Creating a task from a form with a live preview (pwa/src/owner/create/).
const CreateTaskPage = lazyPage<PageProps>(() => import("./owner/create/CreateTaskPage").then((m) => m.CreateTaskPage));
// Owners' webhooks: hooks, delivery logs, secrets (pwa/src/owner/webhooks/).
const WebhooksPage = lazyPage<PageProps>(() => import("./owner/webhooks/WebhooksPage").then((m) => m.WebhooksPage));
// Owners' task settings: texts, config versions, owners, visibility (pwa/src/owner/settings/).
const SettingsPage = lazyPage<PageProps>(() => import("./owner/settings/SettingsPage").then((m) => m.SettingsPage));
// Owners retrain the target model: runs with progress, the retraining gate's comparisons, cancel, override (pwa/src/owner/training/).
const TrainingPage = lazyPage<PageProps>(() => import("./owner/training/TrainingPage").then((m) => m.TrainingPage));
const InboxPage = lazyPage<PageProps>(() => import("./inbox/InboxPage").then((m) => m.InboxPage));
// Admin pages: users, task approvals, models, audit log (pwa/src/admin/).
const AdminUsersPage = lazyPage<PageProps>(() => import("./admin/UsersPage").then((m) => m.UsersPage));
const AdminApprovalsPage = lazyPage<PageProps>(() => import("./admin/ApprovalsPage").then((m) => m.ApprovalsPage));
const AdminModelsPage = lazyPage<PageProps>(() => import("./admin/ModelsPage").then((m) => m.AdminModelsPage));
const AdminAuditPage = lazyPage<PageProps>(() => import("./admin/AuditPage").then((m) => m.AuditPage));
// Researchers' models: upload with progress, one model's status log and scores (pwa/src/models/).
const ModelsPage = lazyPage<PageProps>(() => import("./models/ModelsPage").then((m) => m.ModelsPage));
const ModelPage = lazyPage<PageProps>(() => import("./models/ModelPage").then((m) => m.ModelPage));
// Account pages: email and its verification, password resets (pwa/src/account/).
const AccountPage = lazyPage<PageProps>(() => import("./account/AccountPage").then((m) => m.AccountPage));
const ForgotPasswordPage = lazyPage<PageProps>(() => import("./account/RecoveryPages").then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyPage<PageProps>(() => import("./account/RecoveryPages").then((m) => m.ResetPasswordPage));
const VerifyEmailPage = lazyPage<PageProps>(() => import("./account/RecoveryPages").then((m) => m.VerifyEmailPage));

export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Route {
  path: string;
  title: TitleKey; // its page title: SHELL_TEXT.titles[title], in the UI locale
  page: ComponentType<PageProps>;
  public?: boolean; // reachable without a session
}

export const routes: Route[] = [
  { path: "/", title: "tasks", page: TaskListPage },
  { path: "/tasks/:code", title: "annotate", page: AnnotatePage },
  { path: "/validate", title: "validate", page: ValidateIndexPage },
  { path: "/validate/:code", title: "validate", page: ValidatePage },
  { path: "/examples", title: "examples", page: MyExamplesPage },
  { path: "/outbox", title: "outbox", page: OutboxPage },
  { path: "/models", title: "models", page: ModelsPage },
  { path: "/models/:id", title: "model", page: ModelPage },
  { path: "/leaderboard", title: "leaderboards", page: LeaderboardIndexPage, public: true },
  { path: "/leaderboard/:code", title: "leaderboard", page: LeaderboardPage, public: true },
  { path: "/leaderboard/:code/battles", title: "battleLeaderboard", page: BattleBoardPage, public: true },
  { path: "/owner", title: "owner", page: OwnerIndexPage },
  { path: "/new-task", title: "newTask", page: CreateTaskPage },
  { path: "/owner/:code", title: "ownerTask", page: OwnerTaskPage },
  { path: "/owner/:code/campaigns", title: "campaigns", page: CampaignsPage },
  { path: "/owner/:code/campaigns/:id", title: "campaign", page: CampaignPage },
  { path: "/owner/:code/browse", title: "browse", page: BrowsePage },
  { path: "/owner/:code/flags", title: "flags", page: FlagQueuePage },
  { path: "/owner/:code/webhooks", title: "webhooks", page: WebhooksPage },
  { path: "/owner/:code/settings", title: "settings", page: SettingsPage },
  { path: "/owner/:code/training", title: "training", page: TrainingPage },
  { path: "/inbox", title: "inbox", page: InboxPage },
  { path: "/admin", title: "adminUsers", page: AdminUsersPage },
  { path: "/admin/approvals", title: "adminApprovals", page: AdminApprovalsPage },
  { path: "/admin/models", title: "adminModels", page: AdminModelsPage },
  { path: "/admin/audit", title: "adminAudit", page: AdminAuditPage },
  { path: "/join/:code", title: "join", page: JoinPage, public: true },
  { path: "/account", title: "account", page: AccountPage },
  { path: "/forgot-password", title: "forgot", page: ForgotPasswordPage, public: true },
  { path: "/reset-password", title: "reset", page: ResetPasswordPage, public: true },
  { path: "/verify-email", title: "verify", page: VerifyEmailPage, public: true },
  { path: "/login", title: "login", page: LoginPage, public: true },
];
