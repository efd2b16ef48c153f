// The graph explorer: recall a context in a namespace, draw the neighbourhood of what came back
// (memories, tags, clusters, episodes and their edges), and show one memory's record, history
// and provenance; or show an agent's run as a timeline (its steps, their tool calls, what it
// taught). Everything is read through this server's GraphQL endpoint (POST /graphql).
// The page's state is kept in `window.explorer` (and the graph's counts in data attributes of
// #graph) so that a person's console, or a test, can read what is shown.
"use strict";

const ENDPOINT = "/graphql";
const NEIGHBOURHOOD_LIMIT = 40; // nodes per recalled memory's neighbourhood

const TYPE_COLOURS = {
  FACT: "#4e79a7",
  PREFERENCE: "#f28e2b",
  PROCEDURE: "#59a14f",
  CORRECTION: "#e15759",
  NEGATIVE: "#b07aa1",
};
const KIND_COLOURS = { TAG: "#edc948", CLUSTER: "#76b7b2", EPISODE: "#9c755f", ENTITY: "#e377c2" };
const KIND_SHAPES = {
  MEMORY: "ellipse", TAG: "round-rectangle", CLUSTER: "hexagon", EPISODE: "diamond", ENTITY: "star",
};
const EDGE_STYLES = {
  RELATES_TO: { colour: "#6b6b6b", line: "solid" },
  SUPERSEDES: { colour: "#e15759", line: "solid" },
  CONTRADICTS: { colour: "#d62728", line: "dashed" },
  HAS_TAG: { colour: "#d9c36a", line: "solid" },
  IN_CLUSTER: { colour: "#76b7b2", line: "solid" },
  DERIVED_FROM: { colour: "#9c755f", line: "dotted" },
  MENTIONS: { colour: "#c9a3c0", line: "dotted" },
  RELATED: { colour: "#e377c2", line: "solid" },
};
const STATUS_STYLES = {
  ACTIVE: { border: "solid", opacity: 1 },
  SUPERSEDED: { border: "dashed", opacity: 0.6 },
  ARCHIVED: { border: "dotted", opacity: 0.4 },
};

const MEMORY_FIELDS = `
fragment M on Memory {
  id content memoryType scope project sessionId status provenance confidence strength
  accessCount tags createdAt recordedAt validUntil supersededBy importance
}`;

const RECALL = `
query Recall($ns: String!, $context: String!, $k: Int!, $archived: Boolean!, $history: Boolean!) {
  recall(namespace: $ns, context: $context, k: $k, explain: true, includeGap: true,
         includeArchived: $archived, includeHistory: $history) {
    gap bestRelevance totalMs
    items {
      score flagged
      memory { ...M }
      history { id content supersededAt reason }
      explanation {
        seed seedKinds path { fromId toId type via weight }
        cosine fulltext relevance activation speaker time recency confidence importance score
      }
    }
  }
  clusters(namespace: $ns, first: 50) { id label size members }
}
${MEMORY_FIELDS}`;

const HOOD_FIELDS = `
fragment Hood on Neighbourhood {
  root truncated
  nodes {
    key kind id label depth tagCount clusterSize
    memory { ...M }
    episode { uid sessionId turnIndex speaker text timestamp }
  }
  edges { source target type weight confidence kind resolved }
}
${MEMORY_FIELDS}`;

// The entity view: people, places and things the namespace's memories mention, drawn on
// demand (a click in the list): the entity, the entities it relates to, the memories that
// mention it.
const ENTITIES = `
query Entities($ns: String!) {
  entities(namespace: $ns, first: 30) { uid name kind mentions aliases }
}`;

const ENTITY = `
query Entity($ns: String!, $id: ID!) {
  entity(namespace: $ns, id: $id, memories: 5, timeline: 20) {
    entity { uid name kind aliases mentions firstSeen lastSeen }
    merged { uid name }
    relationships { type outgoing otherUid otherName otherKind since until source }
    timeline { at role memory { ...M } }
  }
}
${MEMORY_FIELDS}`;

// Agent runs: the namespace's recent runs, one run whole (its steps in order, each with its
// tool calls, and the ids of the memories distilled from it), the runs of a similar task, and
// the runs a memory was distilled from (the way back from an experience to its run).
const RUN_FIELDS = `
fragment R on Run {
  id sessionId agent task started ended outcome success status stepCount callCount
}`;

const RUNS = `
query Runs($ns: String!) { runs(namespace: $ns, first: 20) { ...R } }
${RUN_FIELDS}`;

const RUN = `
query RunView($ns: String!, $id: ID!) {
  run(namespace: $ns, id: $id) {
    ...R
    experience
    steps {
      n thought action observation at
      toolCalls { id seq tool arguments result status durationMs error at updated }
    }
  }
}
${RUN_FIELDS}`;

const FAILED_CALLS = new Set(["FAILURE", "ERROR", "TIMEOUT"]);
const CALL_MARKS = {
  SUCCESS: "✓", FAILURE: "✗", ERROR: "⚠", TIMEOUT: "⏱", PENDING: "…", RUNNING: "▶", CANCELLED: "⊘",
};
// What a memory distilled from a run is to that run: the path that worked (a procedure) or a
// route that failed (a negative memory).
const RUN_LESSONS = { PROCEDURE: "experience", NEGATIVE: "warning" };

const DETAIL = `
query Detail($ns: String!, $id: ID!) {
  memory(namespace: $ns, id: $id) { ...M source { sessionId snippet } }
  history(namespace: $ns, memoryId: $id) {
    decisions { at source action reason decider similarity content targetId }
    versions { content at reason }
    supersedes { id content status createdAt }
    supersededBy { id content status createdAt }
    contradicts { id content status resolved resolution }
  }
  provenance(namespace: $ns, memoryId: $id) {
    via
    episode { uid sessionId turnIndex speaker text timestamp }
  }
  memoryRuns(namespace: $ns, memoryId: $id) { ...R }
}
${MEMORY_FIELDS}
${RUN_FIELDS}`;

const explorer = {
  status: "idle", // idle | loading | ready | error
  namespace: null,
  context: null,
  gap: false,
  results: [], // the recall's items, ranked
  nodes: new Map(), // key -> node (GraphQL GraphNode)
  edges: new Map(), // "type source target" -> edge
  selected: null, // { key, record, history, provenance } once loaded
  entities: [], // the namespace's entities, most mentioned first
  entityViews: new Map(), // uid -> the entity view read for it
  runs: [], // the namespace's recent runs, newest first
  run: null, // the run shown: { run, lessons, similar } once read
  runStatus: "idle", // idle | loading | ready | error (the run view)
  counts: { nodes: 0, edges: 0, visibleNodes: 0, visibleEdges: 0, byKind: {} },
  requests: 0,
  cy: null,
};
window.explorer = explorer;

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "class") node.className = value;
    else if (name === "style") Object.assign(node.style, value);
    else if (name.startsWith("data-")) node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The API key, when the server has keys: sent as a bearer token, kept in this tab's
// sessionStorage only (never in localStorage or a cookie).
function apiKey() {
  const field = $("#apikey");
  const typed = field ? field.value.trim() : "";
  if (typed) sessionStorage.setItem("hippograph.apikey", typed);
  return typed || sessionStorage.getItem("hippograph.apikey") || "";
}

async function graphql(query, variables) {
  explorer.requests += 1;
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  const key = apiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(ENDPOINT, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors && body.errors.length) {
    const first = body.errors[0];
    const code = first.extensions && first.extensions.code ? `[${first.extensions.code}] ` : "";
    throw new Error(code + first.message);
  }
  return body.data;
}

function say(text, isError) {
  const box = $("#message");
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError));
}

function checked(filter) {
  return new Set(
    [...document.querySelectorAll(`input[data-filter="${filter}"]`)]
      .filter((box) => box.checked)
      .map((box) => box.value),
  );
}

function fmt(value, digits = 3) {
  return typeof value === "number" ? value.toFixed(digits) : String(value ?? "");
}

function contentOf(id) {
  const node = explorer.nodes.get(`memory:${id}`);
  if (node && node.memory) return node.memory.content;
  const item = explorer.results.find((r) => r.memory.id === id);
  return item ? item.memory.content : id.slice(0, 8);
}

// ---- the graph ---------------------------------------------------------------------------

function graphStyle() {
  const style = [
    {
      selector: "node",
      style: {
        label: "data(label)",
        "font-size": 9,
        "text-wrap": "ellipsis",
        "text-max-width": 120,
        "text-valign": "bottom",
        "text-margin-y": 3,
        width: 18,
        height: 18,
        "border-width": 2,
        "border-color": "#333",
        "background-color": "data(colour)",
        shape: "data(shape)",
        "border-style": "data(border)",
        opacity: "data(opacity)",
      },
    },
    { selector: "node[?recalled]", style: { width: 28, height: 28, "border-width": 4 } },
    { selector: "node:selected", style: { "border-color": "#1a73e8", "border-width": 5 } },
    { selector: ".filtered", style: { display: "none" } },
    {
      selector: "edge",
      style: {
        width: "data(width)",
        "line-color": "data(colour)",
        "line-style": "data(line)",
        "target-arrow-color": "data(colour)",
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.7,
        "curve-style": "bezier",
        label: "data(label)",
        "font-size": 7,
        color: "#a0467f",
      },
    },
  ];
  return style;
}

function nodeData(node, recalled) {
  const memory = node.memory;
  const status = memory ? memory.status : "ACTIVE";
  const colour = memory ? TYPE_COLOURS[memory.memoryType] : KIND_COLOURS[node.kind];
  const rank = recalled.get(node.id);
  return {
    id: node.key,
    label: rank ? `${rank}. ${node.label}` : node.label,
    kind: node.kind,
    memoryType: memory ? memory.memoryType : "",
    scope: memory ? memory.scope : "",
    status,
    colour,
    shape: KIND_SHAPES[node.kind],
    border: STATUS_STYLES[status].border,
    opacity: STATUS_STYLES[status].opacity,
    recalled: Boolean(rank),
  };
}

function edgeData(key, edge) {
  const style = EDGE_STYLES[edge.type];
  const strength = (edge.weight ?? 1) * (edge.confidence ?? 1);
  return {
    id: key,
    source: edge.source,
    target: edge.target,
    type: edge.type,
    colour: style.colour,
    line: style.line,
    width: edge.type === "HAS_TAG" || edge.type === "IN_CLUSTER" ? 1 : 1 + 3 * strength,
    label: edge.relType || "",
  };
}

function drawGraph() {
  const recalled = new Map(explorer.results.map((item, i) => [item.memory.id, i + 1]));
  const elements = [];
  for (const node of explorer.nodes.values()) {
    elements.push({ group: "nodes", data: nodeData(node, recalled) });
  }
  for (const [key, edge] of explorer.edges) {
    if (explorer.nodes.has(edge.source) && explorer.nodes.has(edge.target)) {
      elements.push({ group: "edges", data: edgeData(key, edge) });
    }
  }
  if (explorer.cy) explorer.cy.destroy();
  explorer.cy = cytoscape({
    container: $("#graph"),
    elements,
    style: graphStyle(),
    layout: { name: "cose", animate: false, randomize: true, nodeDimensionsIncludeLabels: true },
    wheelSensitivity: 0.3,
  });
  explorer.cy.on("tap", "node", (event) => select(event.target.id()));
  applyFilters();
}

// Hides what the filters leave out, in the graph and in the list, and records the counts.
function applyFilters() {
  const types = checked("type");
  const scopes = checked("scope");
  const statuses = checked("status");
  const kinds = checked("kind");
  const shows = (node) =>
    node.kind === "MEMORY"
      ? types.has(node.memory.memoryType) &&
        scopes.has(node.memory.scope) &&
        statuses.has(node.memory.status)
      : kinds.has(node.kind);
  const visible = new Set([...explorer.nodes.values()].filter(shows).map((n) => n.key));
  let visibleEdges = 0;
  if (explorer.cy) {
    explorer.cy.batch(() => {
      explorer.cy.nodes().forEach((n) => n.toggleClass("filtered", !visible.has(n.id())));
    });
    explorer.cy.edges().forEach((e) => {
      if (visible.has(e.data("source")) && visible.has(e.data("target"))) visibleEdges += 1;
    });
  }
  for (const li of document.querySelectorAll("#results li")) {
    li.classList.toggle("hidden", !visible.has(`memory:${li.dataset.id}`));
  }
  const byKind = {};
  for (const node of explorer.nodes.values()) byKind[node.kind] = (byKind[node.kind] || 0) + 1;
  explorer.counts = {
    nodes: explorer.cy ? explorer.cy.nodes().length : 0,
    edges: explorer.cy ? explorer.cy.edges().length : 0,
    visibleNodes: visible.size,
    visibleEdges,
    byKind,
  };
  const graph = $("#graph");
  graph.dataset.nodes = explorer.counts.nodes;
  graph.dataset.edges = explorer.counts.edges;
  graph.dataset.visibleNodes = explorer.counts.visibleNodes;
  graph.dataset.visibleEdges = explorer.counts.visibleEdges;
}

function drawLegend() {
  const legend = $("#legend");
  legend.replaceChildren();
  for (const [type, colour] of Object.entries(TYPE_COLOURS)) {
    legend.append(el("span", {}, el("span", { class: "swatch", style: { background: colour, borderRadius: "50%" } }), type.toLowerCase()));
  }
  for (const [kind, colour] of Object.entries(KIND_COLOURS)) {
    legend.append(el("span", {}, el("span", { class: "swatch", style: { background: colour } }), kind.toLowerCase()));
  }
  for (const [status, style] of Object.entries(STATUS_STYLES)) {
    legend.append(
      el("span", {},
        el("span", { class: "swatch", style: { borderColor: "#333", borderStyle: style.border, opacity: style.opacity } }),
        status.toLowerCase()),
    );
  }
  for (const [type, style] of Object.entries(EDGE_STYLES)) {
    legend.append(
      el("span", {},
        el("span", { class: "swatch line", style: { borderColor: style.colour, borderTopStyle: style.line } }),
        type),
    );
  }
}

// ---- reading the graph -------------------------------------------------------------------

function merge(hood) {
  for (const node of hood.nodes) {
    if (!explorer.nodes.has(node.key)) explorer.nodes.set(node.key, node);
  }
  for (const edge of hood.edges) {
    explorer.edges.set(`${edge.type} ${edge.source} ${edge.target}`, edge);
  }
}

function hoodOptions() {
  return {
    depth: Number($("#depth").value),
    sup: $("#show-superseded").checked,
    arch: $("#show-archived").checked,
  };
}

// The neighbourhoods of several memories in one request (one aliased field each).
async function loadNeighbourhoods(ids) {
  if (!ids.length) return;
  const { depth, sup, arch } = hoodOptions();
  const declared = ids.map((_, i) => `$id${i}: ID!`).join(", ");
  const fields = ids
    .map(
      (_, i) =>
        `n${i}: neighbourhood(namespace: $ns, id: $id${i}, depth: $depth, ` +
        `includeSuperseded: $sup, includeArchived: $arch, limit: $limit) { ...Hood }`,
    )
    .join("\n  ");
  const query =
    `query Hood($ns: String!, $depth: Int!, $sup: Boolean!, $arch: Boolean!, $limit: Int!, ${declared}) {\n  ` +
    `${fields}\n}\n${HOOD_FIELDS}`;
  const variables = { ns: explorer.namespace, depth, sup, arch, limit: NEIGHBOURHOOD_LIMIT };
  ids.forEach((id, i) => (variables[`id${i}`] = id));
  const data = await graphql(query, variables);
  ids.forEach((_, i) => merge(data[`n${i}`]));
}

async function run(event) {
  if (event) event.preventDefault();
  const namespace = $("#namespace").value.trim();
  const context = $("#context").value.trim();
  if (!namespace || !context) return;
  explorer.status = "loading";
  explorer.namespace = namespace;
  explorer.context = context;
  const previous = explorer.selected;
  explorer.nodes = new Map();
  explorer.edges = new Map();
  explorer.selected = null;
  say("Recalling...");
  const url = new URL(window.location.href);
  url.searchParams.set("namespace", namespace);
  url.searchParams.set("context", context);
  window.history.replaceState(null, "", url);
  try {
    const data = await graphql(RECALL, {
      ns: namespace,
      context,
      k: Number($("#k").value) || 10,
      archived: $("#show-archived").checked,
      history: $("#show-superseded").checked,
    });
    explorer.results = data.recall.items;
    explorer.gap = data.recall.gap;
    renderResults();
    renderClusters(data.clusters);
    await loadEntities();
    await loadRuns();
    await loadNeighbourhoods(explorer.results.map((item) => item.memory.id));
    drawGraph();
    keepSelection(previous);
    const gap = explorer.gap ? " Nothing clearly relevant (gap): these are the nearest." : "";
    say(`${explorer.results.length} memories recalled in ${Math.round(data.recall.totalMs)} ms; ` +
      `${explorer.counts.nodes} nodes, ${explorer.counts.edges} edges.${gap}`);
    explorer.status = "ready";
  } catch (error) {
    explorer.status = "error";
    say(error.message, true);
  }
}

// A new recall keeps the selected node's details while the node is still drawn.
function keepSelection(previous) {
  if (previous && previous.key.startsWith("run:") && explorer.run) {
    explorer.selected = previous; // a run stays open across recalls
  } else if (previous && explorer.nodes.has(previous.key)) {
    explorer.selected = previous;
    explorer.cy.getElementById(previous.key).select();
    for (const li of document.querySelectorAll("#results li")) {
      li.classList.toggle("selected", `memory:${li.dataset.id}` === previous.key);
    }
  } else {
    $("#details").replaceChildren(el("p", { class: "hint" }, "Click a memory to see its record, its history and where it came from."));
  }
}

// ---- the ranked list ---------------------------------------------------------------------

function badge(memory) {
  return el("span", { class: "badge", style: { background: TYPE_COLOURS[memory.memoryType] } },
    memory.memoryType.toLowerCase());
}

function explanationOf(item) {
  const e = item.explanation;
  if (!e) return null;
  const path = e.path.length
    ? el("ol", { class: "path" },
        e.path.map((step) =>
          el("li", {},
            `${contentOf(step.fromId)} → ${contentOf(step.toId)} `,
            el("b", {}, step.type), step.via ? ` (${step.via})` : "", ` weight ${fmt(step.weight, 2)}`)))
    : el("span", { class: "muted" }, "a seed itself, no path");
  const parts = ["relevance", "cosine", "fulltext", "activation", "speaker", "time", "recency",
    "confidence", "importance", "score"];
  return el("div", { class: "explanation" },
    el("div", {}, "seed: ", el("b", { class: "seed-kinds" }, e.seedKinds.join(", ") || "none"),
      e.seed && e.seed !== item.memory.id ? ` from "${contentOf(e.seed)}"` : ""),
    el("div", {}, "path: ", path),
    el("div", { class: "components" },
      parts.map((p) => el("span", {}, `${p} `, el("span", { class: "score" }, fmt(e[p]))))));
}

function renderResults() {
  const list = $("#results");
  list.replaceChildren();
  $("#result-count").textContent = `(${explorer.results.length})`;
  explorer.results.forEach((item) => {
    const memory = item.memory;
    const li = el("li", { "data-id": memory.id },
      el("div", {}, badge(memory), el("span", { class: "score" }, fmt(item.score)), " ",
        el("span", { class: "content" }, memory.content),
        item.flagged ? el("b", {}, " (negative rule)") : "",
        memory.status !== "ACTIVE" ? el("i", {}, ` [${memory.status.toLowerCase()}]`) : ""),
      item.history.length
        ? el("div", { class: "muted" }, "replaced: ", item.history.map((h) => `"${h.content}"`).join("; "))
        : null,
      explanationOf(item));
    li.addEventListener("click", () => select(`memory:${memory.id}`));
    list.append(li);
  });
}

function renderClusters(clusters) {
  const list = $("#clusters");
  list.replaceChildren();
  if (!clusters.length) {
    list.append(el("li", { class: "muted" }, "none yet (the cluster job makes them)"));
    return;
  }
  for (const cluster of clusters) {
    const li = el("li", { "data-id": cluster.id }, `${cluster.label || cluster.id} `,
      el("span", { class: "muted" }, `(${cluster.size})`));
    li.addEventListener("click", async () => {
      try {
        await loadNeighbourhoods(cluster.members.slice(0, 1));
        drawGraph();
        select(`cluster:${cluster.id}`);
      } catch (error) {
        say(error.message, true);
      }
    });
    list.append(li);
  }
}

// ---- the details of one node ---------------------------------------------------------------

function rows(pairs) {
  return el("table", {},
    pairs.filter(([, v]) => v !== null && v !== undefined && v !== "")
      .map(([k, v]) => el("tr", {}, el("td", { class: "muted" }, k), el("td", {}, String(v)))));
}

function list(items, render, empty) {
  if (!items.length) return el("p", { class: "muted" }, empty);
  return el("ul", {}, items.map((item) => el("li", {}, render(item))));
}

function episodeText(e) {
  return `${e.speaker || "?"} (${e.sessionId} #${e.turnIndex}${e.timestamp ? ", " + e.timestamp : ""}): ${e.text}`;
}

async function select(key) {
  const node = explorer.nodes.get(key);
  closeRunView();
  const details = $("#details");
  for (const li of document.querySelectorAll("#results li")) {
    li.classList.toggle("selected", `memory:${li.dataset.id}` === key);
  }
  if (explorer.cy) {
    explorer.cy.nodes().unselect();
    const target = explorer.cy.getElementById(key);
    if (target.length) target.select();
  }
  if (node && node.kind === "ENTITY") {
    await showEntity(node.id, false);
    return;
  }
  if (!node || node.kind !== "MEMORY") {
    explorer.selected = { key, record: null, history: null, provenance: null };
    details.replaceChildren(el("h2", {}, node ? `${node.kind.toLowerCase()}: ${node.label}` : key),
      node && node.kind === "TAG" ? rows([["memories", node.tagCount]]) : null,
      node && node.kind === "CLUSTER" ? rows([["size", node.clusterSize], ["id", node.id]]) : null,
      node && node.kind === "EPISODE" ? el("p", {}, episodeText(node.episode)) : null);
    return;
  }
  await showMemory(node.id);
}

// One memory's record, history, provenance and the runs it was distilled from, in the details.
async function showMemory(id) {
  const details = $("#details");
  closeRunView();
  details.replaceChildren(el("p", { class: "muted" }, "Loading..."));
  try {
    const data = await graphql(DETAIL, { ns: explorer.namespace, id });
    explorer.selected = {
      key: `memory:${id}`, record: data.memory, history: data.history,
      provenance: data.provenance, runs: data.memoryRuns,
    };
    renderDetails(data);
  } catch (error) {
    details.replaceChildren(el("p", { class: "muted" }, error.message));
    say(error.message, true);
  }
}

function renderDetails({ memory, history, provenance, memoryRuns }) {
  const details = $("#details");
  const expand = el("button", { type: "button", id: "expand" }, "Expand its neighbourhood");
  expand.addEventListener("click", async () => {
    try {
      await loadNeighbourhoods([memory.id]);
      drawGraph();
    } catch (error) {
      say(error.message, true);
    }
  });
  details.replaceChildren(
    el("h2", {}, badge(memory), memory.content),
    expand,
    el("h3", {}, "Record"),
    el("div", { id: "record" }, rows([
      ["id", memory.id], ["status", memory.status.toLowerCase()], ["scope", memory.scope.toLowerCase()],
      ["project", memory.project], ["session", memory.sessionId],
      ["provenance", memory.provenance.toLowerCase()], ["confidence", fmt(memory.confidence)],
      ["strength", memory.strength], ["uses", memory.accessCount],
      ["importance", memory.importance === null ? null : fmt(memory.importance)],
      ["tags", memory.tags.join(", ")], ["created", memory.createdAt], ["learned", memory.recordedAt],
      ["valid until", memory.validUntil], ["superseded by", memory.supersededBy && contentOf(memory.supersededBy)],
    ])),
    el("h3", {}, "History"),
    el("div", { id: "history" },
      el("h4", {}, "Decisions"),
      list(history.decisions, (d) => `${d.at} ${d.action} (${d.source}, ${d.decider}): ${d.reason}`, "none recorded"),
      el("h4", {}, "Versions it replaced"),
      list(history.supersedes, (r) => `"${r.content}" [${r.status}]`, "none"),
      el("h4", {}, "Replaced by"),
      list(history.supersededBy, (r) => `"${r.content}" [${r.status}]`, "nothing: it is current"),
      history.versions.length ? el("h4", {}, "Earlier texts") : null,
      history.versions.length ? list(history.versions, (v) => `${v.at}: "${v.content}" (${v.reason})`, "") : null,
      el("h4", {}, "Contradicts"),
      list(history.contradicts, (r) => `"${r.content}" ${r.resolved ? "(resolved: " + r.resolution + ")" : "(open)"}`, "nothing")),
    el("h3", {}, "Provenance"),
    el("div", { id: "provenance" },
      list(provenance, (p) => episodeText(p.episode) + (p.via.length > 1 ? ` (through ${p.via.length - 1} derived memories)` : ""),
        "no episode: it was remembered directly")),
    memoryRuns.length ? el("h3", {}, "Learned from runs") : null,
    memoryRuns.length ? el("ul", { id: "memory-runs" }, memoryRuns.map((r) => runItem(r))) : null,
  );
}

// ---- entities ---------------------------------------------------------------------------------

async function loadEntities() {
  explorer.entityViews = new Map();
  try {
    explorer.entities = (await graphql(ENTITIES, { ns: explorer.namespace })).entities;
  } catch (error) {
    explorer.entities = [];
    say(error.message, true);
  }
  const ul = $("#entities");
  ul.replaceChildren();
  if (!explorer.entities.length) ul.append(el("li", { class: "muted" }, "none"));
  for (const e of explorer.entities) {
    const li = el("li", { "data-uid": e.uid }, el("span", { class: "name" }, e.name),
      el("span", { class: "muted" }, ` ${e.kind}, ${e.mentions}`));
    li.addEventListener("click", () => showEntity(e.uid, true));
    ul.append(li);
  }
}

function entityNode(uid, name, kind) {
  return { key: `entity:${uid}`, kind: "ENTITY", id: uid, label: name, entityKind: kind };
}

// Draws the entity with the entities it relates to and the memories that mention it.
async function showEntity(uid, draw) {
  const details = $("#details");
  closeRunView();
  try {
    let view = explorer.entityViews.get(uid);
    if (!view) {
      view = (await graphql(ENTITY, { ns: explorer.namespace, id: uid })).entity;
      explorer.entityViews.set(uid, view);
    }
    const key = `entity:${view.entity.uid}`;
    if (draw) {
      explorer.nodes.set(key, entityNode(view.entity.uid, view.entity.name, view.entity.kind));
      for (const r of view.relationships) {
        const other = `entity:${r.otherUid}`;
        if (!explorer.nodes.has(other)) explorer.nodes.set(other, entityNode(r.otherUid, r.otherName, r.otherKind));
        const [source, target] = r.outgoing ? [key, other] : [other, key];
        explorer.edges.set(`RELATED ${source} ${target} ${r.type}`,
          { source, target, type: "RELATED", relType: r.until ? `${r.type} (ended)` : r.type });
      }
      for (const t of view.timeline) {
        const memoryKey = `memory:${t.memory.id}`;
        if (!explorer.nodes.has(memoryKey)) {
          explorer.nodes.set(memoryKey,
            { key: memoryKey, kind: "MEMORY", id: t.memory.id, label: t.memory.content.slice(0, 40), memory: t.memory });
        }
        explorer.edges.set(`MENTIONS ${memoryKey} ${key}`, { source: memoryKey, target: key, type: "MENTIONS" });
      }
      drawGraph();
    }
    explorer.selected = { key, record: view.entity, history: null, provenance: null };
    if (explorer.cy) {
      explorer.cy.nodes().unselect();
      explorer.cy.getElementById(key).select();
    }
    renderEntity(view);
  } catch (error) {
    details.replaceChildren(el("p", { class: "muted" }, error.message));
    say(error.message, true);
  }
}

function renderEntity(view) {
  const e = view.entity;
  const said = (r) => (r.outgoing ? `${e.name} ${r.type} ${r.otherName}` : `${r.otherName} ${r.type} ${e.name}`) +
    (r.since ? ` since ${r.since.slice(0, 10)}` : "") + (r.until ? `, until ${r.until.slice(0, 10)}` : "");
  $("#details").replaceChildren(
    el("h2", {}, `${e.kind}: ${e.name}`),
    el("div", { id: "entity" },
      rows([["aliases", e.aliases.join(", ")], ["mentions", e.mentions], ["first seen", e.firstSeen],
        ["last seen", e.lastSeen], ["merged in", view.merged.map((m) => m.name).join(", ")]]),
      el("h3", {}, "Relationships"),
      el("div", { id: "relationships" }, list(view.relationships, said, "none")),
      el("h3", {}, "Timeline"),
      el("div", { id: "timeline" }, list(view.timeline, (t) => `${t.at.slice(0, 10)} (${t.role}): ${t.memory.content}`, "none"))),
  );
}

// ---- agent runs -------------------------------------------------------------------------------

function runMark(r) {
  if (r.status === "RUNNING") return el("span", { class: "run-mark running" }, "▶ running");
  if (r.status === "ABANDONED") return el("span", { class: "run-mark failed" }, "⏱ abandoned");
  return r.success
    ? el("span", { class: "run-mark succeeded" }, "✓ succeeded")
    : el("span", { class: "run-mark failed" }, "✗ failed");
}

// A run in a list (recent runs, similar runs, the runs a memory came from): a click shows it.
function runItem(r, extra) {
  const li = el("li", { "data-id": r.id, class: "run-link" }, runMark(r), " ",
    el("span", { class: "task" }, r.task), " ",
    el("span", { class: "muted" }, `${r.started.slice(0, 16).replace("T", " ")}, ${r.stepCount} steps`),
    extra || null);
  li.addEventListener("click", () => showRun(r.id));
  return li;
}

async function loadRuns() {
  const ul = $("#runs");
  try {
    explorer.runs = (await graphql(RUNS, { ns: explorer.namespace })).runs;
  } catch (error) {
    explorer.runs = [];
    say(error.message, true);
  }
  ul.replaceChildren(...explorer.runs.map((r) => runItem(r)));
  if (!explorer.runs.length) ul.append(el("li", { class: "muted" }, "none recorded"));
}

// A tool call's arguments or result: on one line when short, indented when not.
function json(value) {
  const line = JSON.stringify(value);
  return line.length <= 100 ? line : JSON.stringify(value, null, 1);
}

function callItem(c) {
  const status = c.status.toLowerCase();
  const failed = FAILED_CALLS.has(c.status);
  return el("li", { class: `call ${status}${failed ? " failed" : ""}`, "data-status": status, "data-tool": c.tool },
    el("div", { class: "call-head" },
      el("span", { class: `call-status ${status}` }, `${CALL_MARKS[c.status] || ""} ${status}`),
      " ", el("b", { class: "tool" }, c.tool),
      c.durationMs !== null ? el("span", { class: "duration" }, ` ${c.durationMs} ms`) : null,
      el("span", { class: "muted" }, ` #${c.seq}`)),
    c.error ? el("div", { class: "call-error" }, `error: ${c.error}`) : null,
    el("div", { class: "call-io" }, "arguments ", el("pre", { class: "arguments" }, json(c.arguments))),
    c.result !== null ? el("div", { class: "call-io" }, "result ", el("pre", { class: "result" }, json(c.result))) : null);
}

function stepItem(s) {
  const failed = s.toolCalls.some((c) => FAILED_CALLS.has(c.status));
  const said = (label, text) => (text ? el("div", { class: label }, el("span", { class: "muted" }, `${label}: `), text) : null);
  return el("li", { class: `step${failed ? " has-failure" : ""}`, "data-n": s.n },
    el("div", { class: "step-head" }, el("b", {}, `Step ${s.n}`), el("span", { class: "muted" }, ` ${s.at}`)),
    said("thought", s.thought), said("action", s.action), said("observation", s.observation),
    s.toolCalls.length ? el("ol", { class: "calls" }, s.toolCalls.map(callItem)) : null);
}

function lessonItem(m) {
  const kind = RUN_LESSONS[m.memoryType] || m.memoryType.toLowerCase();
  const li = el("li", { "data-id": m.id, class: `lesson ${kind}` },
    el("span", { class: "badge", style: { background: TYPE_COLOURS[m.memoryType] } }, kind), " ",
    el("span", { class: "content" }, m.content),
    m.status !== "ACTIVE" ? el("i", {}, ` [${m.status.toLowerCase()}]`) : "");
  li.addEventListener("click", () => showMemory(m.id));
  return li;
}

// The memories a run taught and the runs of similar tasks, in one request (aliased fields).
async function runLessons(r) {
  const declared = r.experience.map((_, i) => `, $m${i}: ID!`).join("");
  const fields = r.experience.map((_, i) => `m${i}: memory(namespace: $ns, id: $m${i}) { ...M }`).join("\n  ");
  const query = `query RunLessons($ns: String!, $task: String!${declared}) {\n  ${fields}\n  ` +
    `similarRuns(namespace: $ns, task: $task, k: 6) { score run { ...R } }\n}\n` +
    `${r.experience.length ? MEMORY_FIELDS : ""}\n${RUN_FIELDS}`; // an unused fragment is an error
  const variables = { ns: explorer.namespace, task: r.task };
  r.experience.forEach((id, i) => (variables[`m${i}`] = id));
  const data = await graphql(query, variables);
  return {
    lessons: r.experience.map((_, i) => data[`m${i}`]).filter(Boolean),
    similar: data.similarRuns.filter((s) => s.run.id !== r.id),
  };
}

function closeRunView() {
  explorer.run = null;
  $("main").classList.remove("run-open");
}

async function showRun(id) {
  const details = $("#details");
  explorer.runStatus = "loading";
  $("main").classList.add("run-open");
  details.replaceChildren(el("p", { class: "muted" }, "Loading the run..."));
  for (const li of document.querySelectorAll("#runs li")) li.classList.toggle("selected", li.dataset.id === id);
  try {
    const r = (await graphql(RUN, { ns: explorer.namespace, id })).run;
    if (!r) throw new Error(`no run ${id} in namespace ${explorer.namespace}`);
    const { lessons, similar } = await runLessons(r);
    explorer.run = { run: r, lessons, similar };
    explorer.selected = { key: `run:${id}`, record: r, history: null, provenance: null };
    const url = new URL(window.location.href);
    url.searchParams.set("namespace", explorer.namespace);
    url.searchParams.set("run", id);
    window.history.replaceState(null, "", url);
    renderRun(explorer.run);
    explorer.runStatus = "ready";
  } catch (error) {
    explorer.runStatus = "error";
    details.replaceChildren(el("p", { class: "muted" }, error.message));
    say(error.message, true);
  }
}

function renderRun({ run: r, lessons, similar }) {
  const failedCalls = r.steps.flatMap((s) => s.toolCalls).filter((c) => FAILED_CALLS.has(c.status)).length;
  $("#details").replaceChildren(
    el("h2", { id: "run-title" }, runMark(r), " ", r.task),
    el("div", { id: "run-head" }, rows([
      ["task", r.task], ["agent", r.agent], ["session", r.sessionId], ["status", r.status.toLowerCase()],
      ["outcome", r.outcome], ["started", r.started], ["ended", r.ended],
      ["steps", r.stepCount], ["tool calls", `${r.callCount} (${failedCalls} failed)`], ["id", r.id],
    ])),
    el("h3", {}, "Timeline"),
    r.steps.length ? el("ol", { id: "run-timeline", class: "timeline" }, r.steps.map(stepItem))
      : el("p", { id: "run-timeline", class: "muted" }, "no step recorded yet"),
    el("h3", {}, "What it taught"),
    el("div", { id: "run-lessons" },
      lessons.length ? el("ul", {}, lessons.map(lessonItem))
        : el("p", { class: "muted" }, r.ended ? "nothing distilled" : "distilled when the run finishes")),
    el("h3", {}, "Runs of similar tasks"),
    el("div", { id: "similar-runs" },
      similar.length ? el("ul", {}, similar.map((s) => runItem(s.run, el("span", { class: "score" }, ` ${fmt(s.score, 2)}`))))
        : el("p", { class: "muted" }, "none")),
  );
}

// ---- wiring ---------------------------------------------------------------------------------

function start() {
  drawLegend();
  $("#ask").addEventListener("submit", run);
  $("#load-runs").addEventListener("click", () => {
    explorer.namespace = $("#namespace").value.trim();
    if (explorer.namespace) loadRuns();
  });
  for (const box of document.querySelectorAll("input[data-filter]")) {
    box.addEventListener("change", () => {
      // Superseded and archived memories are read only on request: asking for them re-reads.
      if ((box.id === "show-superseded" || box.id === "show-archived") && explorer.context) run();
      else applyFilters();
    });
  }
  const params = new URLSearchParams(window.location.search);
  if (params.get("namespace")) $("#namespace").value = params.get("namespace");
  if (params.get("context")) {
    $("#context").value = params.get("context");
    run();
  }
  if (params.get("namespace") && params.get("run")) {
    explorer.namespace = params.get("namespace");
    loadRuns();
    showRun(params.get("run"));
  }
}

start();
