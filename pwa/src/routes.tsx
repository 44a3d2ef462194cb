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

export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Route {
  path: string;
  title: string;
  page: ComponentType<PageProps>;
  nav?: string; // header link label
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
  { path: "/owner/:code", title: "Task owner", page: OwnerTaskPage },
  { path: "/owner/:code/campaigns", title: "Campaigns", page: CampaignsPage },
  { path: "/owner/:code/campaigns/:id", title: "Campaign", page: CampaignPage },
  { path: "/join/:code", title: "Join", page: JoinPage, public: true },
  { path: "/login", title: "Log in", page: LoginPage, public: true },
];
