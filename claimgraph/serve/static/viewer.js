// The claimgraph viewer page: which view is shown (kept in the URL hash, so
// a view can be linked: the corpus, a paper, a hub, a term, the SPARQL box),
// loading it, the side-by-side diff, search and neighbourhood in a graph, the
// keyboard lists, and window.claimgraphViewer for tests.

import { fetchGraph, fetchHub, fetchHubs, fetchPapers, fetchTerm } from "./api.js";
import { CorpusView } from "./corpus.js";
import { renderDetails, renderHint } from "./details.js";
import { Filters } from "./filters.js";
import { structureLayout } from "./layouts.js";
import { GraphPane, linkViewports } from "./panes.js";
import { SparqlBox } from "./sparql.js";

const $ = (id) => document.getElementById(id);
const HINT = "Hover or tap a node or edge, or choose one from the lists below, to see its text, "
  + "source sentence, anchor, confidence and provenance.";
const VIEWS = new Set(["paper", "raw", "compare"]);
const HUB_PAGE = 50; // how many hubs one search lists
const VIEW_NAMES = { paper: "Repaired graph", raw: "Raw extraction" };

const SEARCH_LIST = 30; // how many matches of a search are listed
const state = { target: null, status: "idle", loadSeq: 0, hubSeq: 0, papers: [], structureFor: null, lastGraph: null };
const panes = { main: new GraphPane("main", $("cy-main")), raw: new GraphPane("raw", $("cy-raw")) };
const filters = new Filters(
  { typeList: $("type-options"), roleList: $("role-options"), slider: $("min-confidence"), output: $("min-confidence-value") },
  () => refresh(),
);
let renderChain = Promise.resolve();
const openers = {
  openPaper: (paper) => navigate({ kind: "paper", paper, view: "paper" }),
  openHub: (iri) => navigate({ kind: "hub", iri }),
  openTerm: (iri) => navigate({ kind: "term", iri }),
};
const corpus = new CorpusView({
  container: $("cy-corpus"), kindList: $("corpus-kinds"), categoryList: $("corpus-categories"), summary: $("corpus-summary"),
  more: $("corpus-more"), papers: $("corpus-papers"), details: $("corpus-details"),
}, openers, () => {});
const sparql = new SparqlBox({
  examples: $("sparql-examples"), text: $("sparql-text"), form: $("sparql-form"), status: $("sparql-status"),
  hint: $("sparql-hint"), table: $("sparql-table"), graph: $("cy-sparql"), graphPane: $("sparql-graph-pane"),
}, () => {});
const isGraph = (target) => ["paper", "hub", "term"].includes(target?.kind);

const isCompare = (target) => target?.kind === "paper" && target.view === "compare";
const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

function setStatus(status, message) {
  state.status = status;
  document.body.dataset.status = status;
  $("status").textContent = message;
}

function showBox(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

// ---- where we are: the URL hash --------------------------------------------

function targetFromHash() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (params.has("sparql")) {
    return { kind: "sparql" };
  }
  if (params.get("hub")) {
    return { kind: "hub", iri: params.get("hub") };
  }
  if (params.get("term")) {
    return { kind: "term", iri: params.get("term") };
  }
  if (params.get("paper")) {
    const view = VIEWS.has(params.get("view")) ? params.get("view") : "paper";
    return { kind: "paper", paper: params.get("paper"), view };
  }
  return { kind: "corpus" };
}

function hashFor(target) {
  if (target.kind === "corpus" || target.kind === "sparql") {
    return `#${target.kind}`;
  }
  const params = target.kind === "paper"
    ? new URLSearchParams({ paper: target.paper, view: target.view })
    : new URLSearchParams({ [target.kind]: target.iri });
  return `#${params}`;
}

// Show one of the page's three views: the corpus, a graph, the SPARQL box.
function showView(name) {
  for (const view of ["corpus", "graph", "sparql"]) {
    $(`${view}-view`).hidden = view !== name;
    const link = $(`nav-${view}`);
    if (view === name) {
      link.setAttribute("aria-current", "page");
    } else {
      link.removeAttribute("aria-current");
    }
  }
}

function navigate(target) {
  const hash = hashFor(target);
  if (window.location.hash === hash) {
    load(target);
  } else {
    window.location.hash = hash;
  }
}

function chosenView() {
  return document.querySelector('input[name="view"]:checked')?.value ?? "paper";
}

function syncControls(target) {
  if (target.kind !== "paper") {
    return;
  }
  $("paper-select").value = target.paper;
  const radio = document.querySelector(`input[name="view"][value="${target.view}"]`);
  if (radio) {
    radio.checked = true;
  }
}

function paperName(id) {
  const paper = state.papers.find((entry) => entry.id === id);
  return paper?.title ? `${paper.title} (${id})` : id;
}

// ---- loading and drawing ----------------------------------------------------

async function fetchTarget(target) {
  if (target.kind === "hub") {
    return { hub: await fetchHub(target.iri) };
  }
  if (target.kind === "term") {
    return { term: await fetchTerm(target.iri) };
  }
  if (target.view === "compare") {
    const [raw, paper] = await Promise.all([fetchGraph(target.paper, "raw"), fetchGraph(target.paper, "paper")]);
    return { raw, paper };
  }
  return { [target.view]: await fetchGraph(target.paper, target.view) };
}

function describeTarget(target) {
  if (target.kind === "hub") {
    return `CANON_ hub ${target.iri}`;
  }
  if (target.kind === "term") {
    return `ontology term ${target.iri}`;
  }
  if (target.kind === "corpus") {
    return "the corpus";
  }
  if (target.kind === "sparql") {
    return "the SPARQL box";
  }
  const what = target.view === "compare" ? "raw and repaired graphs" : VIEW_NAMES[target.view].toLowerCase();
  return `the ${what} of paper "${target.paper}"`;
}

async function loadOther(target, seq) {
  showView(target.kind);
  try {
    if (target.kind === "corpus") {
      if (!corpus.data) {
        await corpus.load();
      }
      const counts = corpus.counts();
      $("status").textContent = `Corpus: ${plural(counts.papers, "paper")} and ${plural(counts.links, "link")} shown.`;
    } else {
      await sparql.loadExamples();
      $("status").textContent = "Write a query or start from a shipped one.";
    }
  } catch (err) {
    if (seq === state.loadSeq) {
      showBox("error", `Could not show ${describeTarget(target)}: ${err.message}`);
      setStatus("error", "Loading failed; the message above says why.");
    }
    return;
  }
  if (seq === state.loadSeq) {
    state.status = "ready";
    document.body.dataset.status = "ready";
  }
}

async function load(target) {
  const seq = ++state.loadSeq;
  state.target = target;
  showBox("error", "");
  setStatus("loading", `Loading ${describeTarget(target)}…`);
  if (!isGraph(target)) {
    await loadOther(target, seq);
    return;
  }
  state.lastGraph = target;
  $("nav-graph").href = hashFor(target);
  showView("graph");
  syncControls(target);
  filters.useScope(target.kind === "paper" ? "paper" : "hub");
  panes.main.focusOn(null);
  let data;
  try {
    data = await fetchTarget(target);
  } catch (err) {
    if (seq === state.loadSeq) {
      fail(target, err);
    }
    return;
  }
  renderChain = renderChain.then(async () => {
    if (seq !== state.loadSeq) {
      return;
    }
    const skipped = await render(target, data);
    if (seq === state.loadSeq) {
      showBox("warning", skipped.length ? `Skipped malformed elements: ${skipped.join("; ")}` : "");
      filters.showOptions(uniqueNodeInfos());
      refresh();
      state.status = "ready";
      document.body.dataset.status = "ready";
    }
  }).catch((err) => {
    if (seq === state.loadSeq) {
      fail(target, err);
    }
  });
}

function fail(target, err) {
  panes.main.destroy();
  panes.raw.destroy();
  $("pane-raw").hidden = true;
  $("diff-summary").hidden = true;
  $("pane-main-title").textContent = "No graph shown";
  const message = `Could not show ${describeTarget(target)}: ${err.message}`;
  showBox("error", message);
  showBox("pane-main-message", message);
  $("node-list").replaceChildren();
  setStatus("error", "Loading failed; the message above says why.");
}

async function render(target, data) {
  const compare = isCompare(target);
  renderHint($("details-body"), HINT);
  showBox("pane-main-message", "");
  $("pane-raw").hidden = !compare;
  $("panes").classList.toggle("side-by-side", compare);
  $("diff-summary").hidden = !compare;
  panes.raw.destroy();
  const listen = (pane) => (kind, ele) => showElement(pane, ele);
  if (target.kind === "hub") {
    const { hub } = data.hub;
    $("pane-main-title").textContent = `CANON_ hub: ${hub.text} (${hub.type}), ${plural(hub.papers, "paper")}`;
    return panes.main.show(data.hub, { hubIri: hub.iri, listener: listen(panes.main) });
  }
  if (target.kind === "term") {
    const { term } = data.term;
    $("pane-main-title").textContent = `Ontology term: ${term.label}, ${plural(term.members, "node")} in ${plural(term.papers, "paper")}`;
    return panes.main.show(data.term, { hubIri: term.iri, listener: listen(panes.main) });
  }
  if (!compare) {
    $("pane-main-title").textContent = `${VIEW_NAMES[target.view]}: ${paperName(target.paper)}`;
    const { payload, layout } = withStructure(target, data[target.view]);
    return panes.main.show(payload, { layout, listener: listen(panes.main) });
  }
  // The single view's canvas is gone before the raw pane is measured, so the
  // two columns share the width equally.
  panes.main.destroy();
  $("show-structure").disabled = true;
  $("pane-raw-title").textContent = `Raw extraction (before repair): ${target.paper}`;
  $("pane-main-title").textContent = `Repaired (after repair): ${target.paper}`;
  const skipped = await panes.raw.show(data.raw, { listener: listen(panes.raw) });
  skipped.push(...await panes.main.show(data.paper, { positions: panes.raw.positions(), listener: listen(panes.main) }));
  panes.main.cy.viewport({ zoom: panes.raw.cy.zoom(), pan: { ...panes.raw.cy.pan() } });
  linkViewports(panes.raw, panes.main);
  markDiff();
  return skipped;
}

// A paper with structured input (viewpoints) is drawn with its sentences and
// references joined to them, unless the reader unticks the structure box.
function withStructure(target, payload) {
  const structure = payload.structure;
  const box = $("show-structure");
  const has = Boolean(structure && Array.isArray(structure.nodes) && structure.nodes.length);
  box.disabled = !has;
  if (state.structureFor !== target.paper) {
    state.structureFor = target.paper;
    box.checked = has && payload.nodes.some((node) => node.type === "Viewpoint");
  }
  if (!has || !box.checked) {
    return { payload, layout: null };
  }
  const merged = { nodes: [...payload.nodes, ...structure.nodes], edges: [...payload.edges, ...structure.edges] };
  return { payload: merged, layout: structureLayout };
}

// Ids are stable between the raw and the repaired graph of a paper, so what
// repair added is what only the repaired graph has, and the reverse.
function markDiff() {
  const rawIds = panes.raw.ids();
  const paperIds = panes.main.ids();
  panes.main.mark([...paperIds].filter((id) => !rawIds.has(id)), "added");
  panes.raw.mark([...rawIds].filter((id) => !paperIds.has(id)), "removed");
  $("diff-lists").replaceChildren(
    elementList("Added by repair", panes.main, panes.main.marked("added")),
    elementList("Removed by repair", panes.raw, panes.raw.marked("removed")),
  );
}

// ---- the details panel and the keyboard lists --------------------------------

function nameIn(pane, id) {
  const info = pane.element(id)?.data("info");
  return info ? info.label || info.text || id : id;
}

function describeElement(pane, ele) {
  const info = ele.data("info");
  if (ele.isNode()) {
    return `${info.type || "Node"}: ${nameIn(pane, info.id)}`;
  }
  return `${info.label || "edge"}: ${nameIn(pane, info.source)} → ${nameIn(pane, info.target)}`;
}

function showElement(pane, ele) {
  let mark = null;
  if (ele.hasClass("added") || ele.hasClass("removed")) {
    mark = ele.hasClass("added") ? "added" : "removed";
  }
  renderDetails($("details-body"), {
    kind: ele.isNode() ? "node" : "edge",
    info: ele.data("info"),
    isHub: ele.hasClass("hub"),
    mark,
    paneTitle: $(`pane-${pane.name}-title`).textContent,
    nameOf: (id) => nameIn(pane, id),
    openPaper: (paper) => navigate({ kind: "paper", paper, view: chosenView() }),
    actions: ele.isNode() && pane === panes.main && !isCompare(state.target) ? neighbourhoodActions(ele.id()) : [],
  });
}

// Neighbourhood expansion: show one node and what is within n steps of it.
function neighbourhoodActions(id) {
  const focus = panes.main.focusCentre;
  const hops = focus && focus.id === id ? focus.hops : 0;
  const show = (steps) => () => {
    panes.main.focusOn(steps === 0 ? null : id, steps);
    refresh();
    panes.main.fitVisible();
    showElement(panes.main, panes.main.element(id));
  };
  const actions = [{ name: "neighbourhood", text: hops ? `Expand: ${hops + 1} steps around it` : "Show only its neighbourhood", run: show(hops + 1) }];
  if (panes.main.focusCentre) {
    actions.push({ name: "whole-graph", text: "Show the whole graph again", run: show(0) });
  }
  return actions;
}

function elementButton(pane, ele) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.id = ele.id();
  button.textContent = describeElement(pane, ele);
  const reveal = () => {
    pane.select(ele.id());
    showElement(pane, ele);
  };
  button.addEventListener("focus", reveal);
  button.addEventListener("click", reveal);
  const item = document.createElement("li");
  item.append(button);
  return item;
}

function elementList(title, pane, ids) {
  const section = document.createElement("section");
  const heading = document.createElement("h3");
  heading.textContent = `${title} (${ids.length})`;
  const list = document.createElement("ul");
  list.className = "plain-list element-list";
  list.dataset.list = title.split(" ")[0].toLowerCase();
  for (const id of ids) {
    list.append(elementButton(pane, pane.element(id)));
  }
  section.append(heading, list);
  return section;
}

function fillNodeList() {
  const nodes = panes.main.cy ? panes.main.cy.nodes(":visible").toArray() : [];
  const names = new Map(nodes.map((node) => [node, describeElement(panes.main, node)]));
  nodes.sort((a, b) => (names.get(a) < names.get(b) ? -1 : Number(names.get(a) > names.get(b))));
  $("node-list").replaceChildren(...nodes.map((node) => elementButton(panes.main, node)));
}

// ---- filters ----------------------------------------------------------------

function uniqueNodeInfos() {
  const byId = new Map();
  for (const pane of [panes.main, panes.raw]) {
    if (!pane.cy) {
      continue;
    }
    pane.cy.nodes().not(".hub").forEach((node) => byId.set(node.id(), node.data("info")));
  }
  return [...byId.values()];
}

function paneSummary(pane, name) {
  const shown = pane.counts();
  const total = { nodes: pane.cy.nodes().length, edges: pane.cy.edges().length };
  const text = `${name}: ${shown.nodes} of ${plural(total.nodes, "node")} and ${shown.edges} of `
    + `${plural(total.edges, "edge")} shown`;
  pane.container.setAttribute("aria-label", `${text}. The lists below reach each element by keyboard.`);
  return text;
}

function showFilterState() {
  const hidden = filters.describe();
  const focus = panes.main.focusCentre;
  const parts = [];
  if (hidden) {
    parts.push(`Filters active (${state.target.kind === "paper" ? "paper views" : "hub and term views"}): ${hidden}.`);
  }
  if (focus) {
    parts.push(`Showing only what is within ${plural(focus.hops, "step")} of ${nameIn(panes.main, focus.id)}.`);
  }
  $("filters-active-text").textContent = parts.join(" ");
  $("filters-active").hidden = parts.length === 0;
}

function runSearch() {
  const query = $("node-search").value;
  const found = panes.main.search(query);
  const summary = query.trim() ? `${plural(found.length, "visible node")} match "${query.trim()}"` : "";
  $("node-search-summary").textContent = summary;
  $("node-search-results").replaceChildren(...found.slice(0, SEARCH_LIST).map((node) => {
    const item = elementButton(panes.main, node);
    item.querySelector("button").addEventListener("click", () => panes.main.centre(node.id()));
    return item;
  }));
  return found;
}

function refresh() {
  if (!panes.main.cy || !isGraph(state.target)) {
    return;
  }
  panes.main.applyFilter(filters);
  panes.raw.applyFilter(filters);
  showFilterState();
  runSearch();
  fillNodeList();
  const parts = [];
  if (panes.raw.cy) {
    parts.push(paneSummary(panes.raw, "Raw"));
  }
  const mainName = { hub: "Hub view", term: "Term view" }[state.target.kind] ?? VIEW_NAMES[state.target.view] ?? "Repaired";
  parts.push(paneSummary(panes.main, mainName));
  showBox("pane-main-message", panes.main.cy.nodes().length === 0 ? "This graph has no nodes." : "");
  $("status").textContent = `${parts.join(". ")}.`;
}

// ---- the choosers -----------------------------------------------------------

async function loadPaperList() {
  const select = $("paper-select");
  try {
    state.papers = await fetchPapers();
  } catch (err) {
    showBox("error", `Could not list the papers: ${err.message}`);
    select.replaceChildren(new Option("Paper list unavailable", ""));
    return;
  }
  const prompt = state.papers.length ? "Choose a paper" : "No papers in the store yet";
  select.replaceChildren(new Option(prompt, ""), ...state.papers.map((paper) => new Option(
    `${paper.title || paper.id} (${plural(paper.nodes, "node")}, ${plural(paper.edges, "edge")})`,
    paper.id,
  )));
}

function hubButton(hub) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.iri = hub.iri;
  button.textContent = `${hub.text} (${hub.type}): ${plural(hub.members, "member")} in ${plural(hub.papers, "paper")}`;
  button.addEventListener("click", () => navigate({ kind: "hub", iri: hub.iri }));
  const item = document.createElement("li");
  item.append(button);
  return item;
}

async function searchHubs(query) {
  const seq = ++state.hubSeq;
  $("hub-summary").textContent = "Searching…";
  try {
    const hubs = await fetchHubs(query, HUB_PAGE);
    if (seq !== state.hubSeq) {
      return;
    }
    $("hub-results").replaceChildren(...hubs.map(hubButton));
    const found = query ? `${plural(hubs.length, "hub")} match "${query}"` : plural(hubs.length, "hub");
    const more = hubs.length >= HUB_PAGE ? `; only the first ${HUB_PAGE} are listed, so narrow the search to see others` : "";
    $("hub-summary").textContent = found + more;
  } catch (err) {
    if (seq === state.hubSeq) {
      $("hub-summary").textContent = "";
      showBox("error", `Could not search the hubs: ${err.message}`);
    }
  }
}

function bindControls() {
  $("paper-select").addEventListener("change", (evt) => {
    if (evt.target.value) {
      navigate({ kind: "paper", paper: evt.target.value, view: chosenView() });
    }
  });
  for (const radio of document.querySelectorAll('input[name="view"]')) {
    radio.addEventListener("change", () => {
      const paper = state.target?.kind === "paper" ? state.target.paper : $("paper-select").value;
      if (paper) {
        navigate({ kind: "paper", paper, view: chosenView() });
      }
    });
  }
  let typing = null;
  const search = $("hub-search");
  search.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => searchHubs(search.value.trim()), 250);
  });
  $("hub-search-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    clearTimeout(typing);
    searchHubs(search.value.trim());
  });
  window.addEventListener("hashchange", () => load(targetFromHash()));
  $("node-search-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const [first] = runSearch();
    if (first) {
      panes.main.select(first.id());
      panes.main.centre(first.id());
      showElement(panes.main, first);
    }
  });
  $("node-search").addEventListener("input", () => runSearch());
  $("filters-reset").addEventListener("click", () => {
    filters.reset();
    panes.main.focusOn(null);
    filters.showOptions(uniqueNodeInfos());
    refresh();
    panes.main.fitVisible();
  });
  $("show-structure").addEventListener("change", () => {
    if (state.target?.kind === "paper") {
      load(state.target);
    }
  });
}

// ---- start ------------------------------------------------------------------

window.claimgraphViewer = {
  state: () => ({ status: state.status, target: state.target }),
  counts: () => panes.main.counts(),
  corpusCounts: () => corpus.counts(),
  corpusLinks: () => corpus.visibleLinks(),
  corpusPosition: (id) => corpus.renderedPosition(id),
  sparqlResult: () => ({ ...sparql.result }),
  filtersActive: () => ($("filters-active").hidden ? "" : $("filters-active-text").textContent),
  searchMatches: () => (panes.main.cy ? panes.main.cy.nodes(".match:visible").map((node) => node.id()).sort() : []),
  paneCounts: () => {
    if (isCompare(state.target)) {
      return { raw: panes.raw.counts(), paper: panes.main.counts() };
    }
    const name = ["hub", "term"].includes(state.target?.kind) ? state.target.kind : state.target?.view ?? "paper";
    return { [name]: panes.main.counts() };
  },
  highlighted: () => ({ added: panes.main.marked("added"), removed: panes.raw.marked("removed") }),
  renderedPosition: (id, pane = "main") => panes[pane].renderedPosition(id),
  renderedExtent: (pane = "main") => panes[pane].renderedExtent(),
};

async function start() {
  if (typeof window.cytoscape !== "function") {
    showBox("error", "The graph library (vendor/cytoscape.min.js) did not load, so no graph can be drawn; "
      + "check that the server serves the vendor folder next to this page.");
    setStatus("error", "Cannot draw graphs.");
    return;
  }
  bindControls();
  setStatus("loading", "Loading the paper list…");
  await loadPaperList();
  searchHubs("");
  if (!state.papers.length && targetFromHash().kind === "corpus") {
    setStatus("idle", "Nothing to show yet: the store holds no papers.");
    showView("corpus");
    return;
  }
  load(targetFromHash());
}

start();
