// The explorer's entity view: recall, read the list of people and things, click one, and read
// what the page drew (the entity, those it relates to, the memories that mention it) and the
// details it showed (relationships, ended ones too, and the timeline).
"use strict";

const { run } = require("./chromium.cjs");

run(async (page, { url, namespace, context, entity }, shot) => {
  await page.goto(url, { waitUntil: "load" });
  await page.fill("#namespace", namespace);
  await page.fill("#context", context);
  await page.click("#recall");
  await page.waitForFunction(() => ["ready", "error"].includes(window.explorer.status), null, {
    timeout: 60000,
  });
  const listed = await page.$$eval("#entities li", (items) =>
    items.map((li) => ({ uid: li.dataset.uid, text: li.innerText })),
  );
  const before = await page.evaluate(() => [...window.explorer.nodes.keys()].sort());
  const item = listed.find((e) => e.text.startsWith(entity));
  await page.click(`#entities li[data-uid="${item.uid}"]`);
  await page.waitForSelector("#relationships", { timeout: 30000 });
  await shot("explore-entity.png");
  return {
    status: await page.evaluate(() => window.explorer.status),
    listed,
    before,
    nodeKeys: await page.evaluate(() => [...window.explorer.nodes.keys()].sort()),
    edgeKeys: await page.evaluate(() => [...window.explorer.edges.keys()].sort()),
    drawn: await page.evaluate(() => window.explorer.cy.nodes().length),
    title: await page.innerText("#details h2"),
    relationships: await page.innerText("#relationships"),
    timeline: await page.innerText("#timeline"),
    legend: await page.innerText("#legend"),
    selected: await page.evaluate(() => window.explorer.selected.key),
  };
});
