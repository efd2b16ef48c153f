// Shared by the page scripts: Debian's Chromium through playwright-core (from web/node_modules),
// headless, in a fresh profile, with every request that would leave the loopback interface
// blocked and recorded, and the page's console errors (CSP violations among them) collected.
"use strict";

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { createRequire } = require("node:module");

const webDir = process.env.HIPPOGRAPH_WEB_DIR;
const { chromium } = createRequire(path.join(webDir, "package.json"))("playwright-core");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function open() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "hippograph-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.HIPPOGRAPH_CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const seen = { offsite: [], consoleErrors: [], requests: [] };
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    seen.requests.push(`${route.request().method()} ${url.pathname}`);
    if (["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) || url.protocol === "data:") {
      return route.continue();
    }
    seen.offsite.push(url.href);
    return route.abort("blockedbyclient");
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => m.type() === "error" && seen.consoleErrors.push(m.text()));
  page.on("pageerror", (e) => seen.consoleErrors.push(String(e)));
  const close = async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { page, seen, close };
}

// Runs `steps(page, params, shot)` and prints one JSON object for the pytest side to assert on:
// what the steps returned, what the browser saw, the screenshots (`shot(name)` during the steps,
// HIPPOGRAPH_SCREENSHOT at the end, also after a failure), or the error that stopped the steps.
async function run(steps) {
  const params = JSON.parse(process.env.HIPPOGRAPH_PAGE_PARAMS || "{}");
  const artifacts = process.env.HIPPOGRAPH_ARTIFACTS;
  const { page, seen, close } = await open();
  const report = { seen, screenshots: [] };
  const shot = async (name) => {
    const file = path.join(artifacts, name);
    await page.screenshot({ path: file });
    report.screenshots.push(file);
  };
  try {
    report.result = await steps(page, params, shot);
  } catch (error) {
    report.error = String(error && error.stack ? error.stack : error);
  }
  try {
    await shot(process.env.HIPPOGRAPH_SCREENSHOT);
  } finally {
    await close();
  }
  process.stdout.write(JSON.stringify(report));
}

module.exports = { run };
