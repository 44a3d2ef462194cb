/** Start-up: render, register the service worker, ask for persistent storage, start the outbox sync loop. */
import { render } from "preact";
import { registerSW } from "virtual:pwa-register";
import { App } from "./app";
import { startI18n } from "./i18n/runtime";
import { watchNetwork } from "./lib/network";
import { startSync } from "./outbox/sync";
import { requestPersistentStorage } from "./storage/db";
import "./styles.css";

watchNetwork();
startI18n(() => render(<App />, document.getElementById("app")!));

if ("serviceWorker" in navigator) {
  // autoUpdate: a new version activates at once (skipWaiting + clientsClaim); drafts live in IndexedDB.
  registerSW({ immediate: true });
}
void requestPersistentStorage();
startSync();
