// `npm run codegen`: writes src/api/generated/ (the operations every documents.ts sends, and their types) from
// scripts/operations.ts, loaded through Vite so the TypeScript documents modules run as they do in the app.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

const { module } = await runnerImport(fileURLToPath(new URL("./operations.ts", import.meta.url)), { configFile: false, logLevel: "warn" });
const { operations, types } = await module.generate();
mkdirSync(dirname(module.TYPES_PATH), { recursive: true });
writeFileSync(module.OPERATIONS_PATH, operations);
writeFileSync(module.TYPES_PATH, types);
console.log(`codegen: wrote ${module.OPERATIONS_PATH} and ${module.TYPES_PATH}`);
