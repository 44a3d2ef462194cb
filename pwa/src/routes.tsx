/**
 * Every page of the app. Each feature adds its routes here; `nav` puts a link in the header.
 * validate/ (validators), models/ + leaderboard/ (researchers), owner/ (task owners).
 */
import type { ComponentType } from "preact";
import { AnnotatePage } from "./annotate/AnnotatePage";
import { LoginPage } from "./auth/LoginPage";
import { MyExamplesPage } from "./examples/MyExamplesPage";
import { OutboxPage } from "./outbox/OutboxPage";
import { TaskListPage } from "./tasks/TaskListPage";
import { ValidateIndexPage, ValidatePage } from "./validate/ValidatePage";
import { LeaderboardIndexPage, LeaderboardPage } from "./leaderboard/LeaderboardPage";
import { ModelPage, ModelsPage } from "./models/ModelsPage";
import { OwnerIndexPage, OwnerTaskPage } from "./owner/OwnerPage";
import { lazyPage } from "./lib/lazy";

// Separate chunks, loaded on first use: crowd workers' join flow, owners' campaign pages.
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
const InboxPage = lazyPage<PageProps>(() => import("./inbox/InboxPage").then((m) => m.InboxPage));
// Admin pages: users, task approvals, models, audit log (pwa/src/admin/).
const AdminUsersPage = lazyPage<PageProps>(() => import("./admin/UsersPage").then((m) => m.UsersPage));
const AdminApprovalsPage = lazyPage<PageProps>(() => import("./admin/ApprovalsPage").then((m) => m.ApprovalsPage));
const AdminModelsPage = lazyPage<PageProps>(() => import("./admin/ModelsPage").then((m) => m.AdminModelsPage));
const AdminAuditPage = lazyPage<PageProps>(() => import("./admin/AuditPage").then((m) => m.AuditPage));
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
  title: string;
  page: ComponentType<PageProps>;
  nav?: string; // header link label
  admin?: boolean; // the header link shows for admins only (the page itself tells others it is for admins)
  public?: boolean; // reachable without a session
}

export const routes: Route[] = [
  { path: "/", title: "Tasks", page: TaskListPage, nav: "Tasks" },
  { path: "/tasks/:code", title: "Annotate", page: AnnotatePage },
  { path: "/validate", title: "Validate", page: ValidateIndexPage, nav: "Validate" },
  { path: "/validate/:code", title: "Validate", page: ValidatePage },
  { path: "/examples", title: "My examples", page: MyExamplesPage, nav: "My examples" },
  { path: "/outbox", title: "Outbox", page: OutboxPage, nav: "Outbox" },
  { path: "/models", title: "Models", page: ModelsPage, nav: "Models" },
  { path: "/models/:id", title: "Model", page: ModelPage },
  { path: "/leaderboard", title: "Leaderboards", page: LeaderboardIndexPage, nav: "Leaderboard" },
  { path: "/leaderboard/:code", title: "Leaderboard", page: LeaderboardPage },
  { path: "/owner", title: "Your tasks", page: OwnerIndexPage, nav: "Own tasks" },
  { path: "/new-task", title: "Create a task", page: CreateTaskPage },
  { path: "/owner/:code", title: "Task owner", page: OwnerTaskPage },
  { path: "/owner/:code/campaigns", title: "Campaigns", page: CampaignsPage },
  { path: "/owner/:code/campaigns/:id", title: "Campaign", page: CampaignPage },
  { path: "/owner/:code/browse", title: "Browse examples", page: BrowsePage },
  { path: "/owner/:code/flags", title: "Flag queue", page: FlagQueuePage },
  { path: "/owner/:code/webhooks", title: "Webhooks", page: WebhooksPage },
  { path: "/inbox", title: "Notifications", page: InboxPage },
  { path: "/admin", title: "Users · Admin", page: AdminUsersPage, nav: "Admin", admin: true },
  { path: "/admin/approvals", title: "Task approvals · Admin", page: AdminApprovalsPage },
  { path: "/admin/models", title: "Models · Admin", page: AdminModelsPage },
  { path: "/admin/audit", title: "Audit log · Admin", page: AdminAuditPage },
  { path: "/join/:code", title: "Join", page: JoinPage, public: true },
  { path: "/account", title: "Your account", page: AccountPage },
  { path: "/forgot-password", title: "Reset your password", page: ForgotPasswordPage, public: true },
  { path: "/reset-password", title: "Choose a new password", page: ResetPasswordPage, public: true },
  { path: "/verify-email", title: "Confirm your email address", page: VerifyEmailPage, public: true },
  { path: "/login", title: "Log in", page: LoginPage, public: true },
];
