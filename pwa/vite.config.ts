/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// The API serves pwa/dist at "/" and GraphQL at "/graphql" on the same origin. In `npm run dev`,
// point VITE_API at a running `dynabench up` (default http://127.0.0.1:8000).
const api = process.env.VITE_API ?? "http://127.0.0.1:8000";

export default defineConfig({
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { target: "es2022", sourcemap: true },
  server: { proxy: { "/graphql": { target: api, ws: true, changeOrigin: true } } },
  plugins: [
    VitePWA({
      strategies: "generateSW",
      registerType: "autoUpdate",
      injectRegister: false, // src/main.tsx registers it (workbox-window via virtual:pwa-register)
      includeManifestIcons: false, // globPatterns below already precaches every icon
      manifest: {
        name: "Dynabench annotate",
        short_name: "Dynabench",
        description: "Write examples that fool the model — online or offline.",
        lang: "en",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "any",
        background_color: "#f8fafc",
        theme_color: "#1e3a8a",
        categories: ["education", "productivity"],
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        // The app shell: every built asset is precached; navigations fall back to index.html.
        globPatterns: ["**/*.{js,css,html,png,svg,webmanifest}"],
        navigateFallback: "/index.html",
        // Never answer API, health or export-download navigations with the shell.
        navigateFallbackDenylist: [/^\/graphql/, /^\/health/, /^\/exports\//],
        // No runtimeCaching at all: /graphql (POST and websocket) always goes to the network, so no
        // GraphQL response is ever cached by the service worker.
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        sourcemap: false,
      },
      devOptions: { enabled: false },
    }),
  ],
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
});
