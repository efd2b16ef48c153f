// The graph explorer at /explore: pick the namespace, type a context and recall, read the ranked
// list, its explanations and the graph's counts; click a memory's node on the canvas and read
// its record and history; hide a type; ask for superseded memories.
"use strict";

const { run } = require("./chromium.cjs");

async function settled(page) {
  await page.waitForFunction(() => ["ready", "error"].includes(window.explorer.status), null, {
    timeout: 60000,
  });
  return page.evaluate(() => ({
    status: window.explorer.status,
    message: document.querySelector("#message").textContent,
    counts: window.explorer.counts,
    graph: { ...document.querySelector("#graph").dataset },
    nodeKeys: [...window.explorer.nodes.keys()].sort(),
    edgeKeys: [...window.explorer.edges.keys()].sort(),
  }));
}

async function recalled(page) {
  return page.$$eval("#results li", (items) =>
    items.map((li) => ({
      id: li.dataset.id,
      content: li.querySelector(".content").textContent,
      score: Number(li.querySelector(".score").textContent),
      seedKinds: li.querySelector(".seed-kinds") ? li.querySelector(".seed-kinds").textContent : null,
      components: li.querySelector(".components") ? li.querySelector(".components").innerText : null,
      hidden: li.classList.contains("hidden"),
    })),
  );
}

// A real mouse click at the node's place on the canvas.
async function clickNode(page, key) {
  const at = await page.evaluate((k) => {
    const node = window.explorer.cy.getElementById(k);
    const box = window.explorer.cy.container().getBoundingClientRect();
    const p = node.renderedPosition();
    return { x: box.left + p.x, y: box.top + p.y };
  }, key);
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(
    (k) => window.explorer.selected && window.explorer.selected.key === k &&
      window.explorer.selected.history !== undefined && document.querySelector("#record"),
    key,
    { timeout: 30000 },
  );
  return page.evaluate(() => ({
    selected: window.explorer.selected.key,
    title: document.querySelector("#details h2").textContent,
    record: document.querySelector("#record").innerText,
    history: document.querySelector("#history").innerText,
    provenance: document.querySelector("#provenance").innerText,
  }));
}

run(async (page, { url, namespace, context, clickKey, hideType }, shot) => {
  const response = await page.goto(url, { waitUntil: "load" });
  const loaded = {
    status: response.status(),
    title: await page.title(),
    legend: await page.innerText("#legend"),
    cytoscape: await page.evaluate(() => typeof window.cytoscape),
  };
  await page.fill("#namespace", namespace);
  await page.fill("#context", context);
  await page.click("#recall");
  const first = await settled(page);
  const list = await recalled(page);
  await shot("explore-recall.png");

  const details = await clickNode(page, clickKey);
  await shot("explore-details.png");

  await page.uncheck(`input[data-filter="type"][value="${hideType}"]`);
  const filtered = await page.evaluate(() => window.explorer.counts);
  const listFiltered = await recalled(page);
  await page.check(`input[data-filter="type"][value="${hideType}"]`);

  await page.evaluate(() => (window.explorer.status = "loading"));
  await page.check("#show-superseded");
  const withSuperseded = await settled(page);
  return { loaded, first, list, details, filtered, listFiltered, withSuperseded };
});
