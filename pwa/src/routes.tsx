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
  { path: "/login", title: "Log in", page: LoginPage, public: true },
];
