// The explorer's run view: list the namespace's runs, open one, read its timeline (steps in
// order, each tool call with its status, duration, arguments, result and error), open a memory
// it taught and follow that memory's link back to the run.
"use strict";

const { run } = require("./chromium.cjs");

const readTimeline = (page) =>
  page.$$eval("#run-timeline > li.step", (steps) =>
    steps.map((li) => ({
      n: Number(li.dataset.n),
      hasFailure: li.classList.contains("has-failure"),
      thought: li.querySelector(".thought")?.innerText ?? null,
      action: li.querySelector(".action")?.innerText ?? null,
      observation: li.querySelector(".observation")?.innerText ?? null,
      calls: [...li.querySelectorAll("li.call")].map((c) => ({
        tool: c.dataset.tool,
        status: c.dataset.status,
        classes: [...c.classList].sort(),
        badge: c.querySelector(".call-status").innerText,
        badgeColour: getComputedStyle(c.querySelector(".call-status")).backgroundColor,
        border: getComputedStyle(c).borderLeftColor,
        duration: c.querySelector(".duration")?.innerText.trim() ?? null,
        error: c.querySelector(".call-error")?.innerText ?? null,
        arguments: c.querySelector("pre.arguments").innerText,
        result: c.querySelector("pre.result")?.innerText ?? null,
      })),
    })),
  );

run(async (page, { url, namespace, runId }, shot) => {
  await page.goto(url, { waitUntil: "load" });
  await page.fill("#namespace", namespace);
  await page.click("#load-runs");
  await page.waitForSelector(`#runs li[data-id="${runId}"]`, { timeout: 30000 });
  const listed = await page.$$eval("#runs li", (items) => items.map((li) => ({ id: li.dataset.id, text: li.innerText })));
  await page.click(`#runs li[data-id="${runId}"]`);
  await page.waitForFunction(() => ["ready", "error"].includes(window.explorer.runStatus), null, { timeout: 60000 });
  await shot("explore-run.png");
  const view = {
    status: await page.evaluate(() => window.explorer.runStatus),
    url: page.url(),
    title: await page.innerText("#run-title"),
    head: await page.innerText("#run-head"),
    timeline: await readTimeline(page),
    lessons: await page.$$eval("#run-lessons li", (items) =>
      items.map((li) => ({ id: li.dataset.id, kind: li.classList.contains("warning") ? "warning" : "experience", text: li.innerText }))),
    similar: await page.$$eval("#similar-runs li", (items) => items.map((li) => li.dataset.id)),
    wide: await page.evaluate(() => document.querySelector("main").classList.contains("run-open")),
  };
  // A warning the run taught, opened: its details lead back to the run.
  const warning = view.lessons.find((l) => l.kind === "warning");
  await page.click(`#run-lessons li[data-id="${warning.id}"]`);
  await page.waitForSelector("#memory-runs li", { timeout: 30000 });
  const memory = {
    title: await page.innerText("#details h2"),
    runs: await page.$$eval("#memory-runs li", (items) => items.map((li) => li.dataset.id)),
    wide: await page.evaluate(() => document.querySelector("main").classList.contains("run-open")),
  };
  await page.click(`#memory-runs li[data-id="${runId}"]`);
  await page.waitForFunction((id) => window.explorer.runStatus === "ready" && window.explorer.run?.run.id === id,
    runId, { timeout: 30000 });
  const back = { title: await page.innerText("#run-title"), steps: (await readTimeline(page)).length };
  // The run's address opens it directly.
  await page.goto(view.url, { waitUntil: "load" });
  await page.waitForFunction(() => window.explorer.runStatus === "ready", null, { timeout: 30000 });
  const direct = { title: await page.innerText("#run-title"), runs: await page.$$eval("#runs li", (i) => i.length) };
  // A run of a similar task, still open and without steps, opened from the list of similar runs.
  const otherId = view.similar[0];
  await page.click(`#similar-runs li[data-id="${otherId}"]`);
  await page.waitForFunction((id) => window.explorer.runStatus === "ready" && window.explorer.run?.run.id === id,
    otherId, { timeout: 30000 });
  const other = {
    title: await page.innerText("#run-title"),
    timeline: await page.innerText("#run-timeline"),
    lessons: await page.innerText("#run-lessons"),
  };
  return { listed, view, memory, back, direct, other };
});
