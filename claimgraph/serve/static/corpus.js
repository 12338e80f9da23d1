// The corpus view: every paper as a node (size by its node count, colour by
// category) and the links between papers (shared CANON_ hubs, shared ontology
// terms, citations, shared cited works) as edges, drawn thicker with their
// count. The server sends the strongest links of each kind first; "Show more"
// asks for more. Papers are placed by category in one pass (a circle of
// clusters), so a thousand papers draw without a force simulation.

import { fetchCorpus, fetchShared } from "./api.js";
import { toggleItem } from "./checklist.js";
import { typeColour } from "./graph-style.js";

export const LINK_KINDS = ["hub", "term", "citation", "shared-citation"];
const KIND_TEXT = {
  hub: "shared CANON_ hubs",
  term: "shared ontology terms",
  citation: "citations",
  "shared-citation": "shared cited works",
};
const KIND_COLOURS = { hub: "#0072B2", term: "#009E73", citation: "#D55E00", "shared-citation": "#CC79A7" };
const FIRST_LIMIT = 300;
const NO_CATEGORY = "(no category)";

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

function paperName(paper) {
  const year = paper.year ? ` (${paper.year})` : "";
  return `${paper.title || paper.id}${year}`;
}

// Clusters of papers by category on a large circle; inside a cluster, papers
// on a sunflower spiral, the largest in the middle.
function clusterPositions(papers) {
  const groups = new Map();
  for (const paper of papers) {
    const key = paper.category || NO_CATEGORY;
    groups.set(key, [...(groups.get(key) ?? []), paper]);
  }
  const names = [...groups.keys()].sort();
  const biggest = Math.max(1, ...[...groups.values()].map((group) => group.length));
  const clusterRadius = 40 * Math.sqrt(biggest) + 60;
  const ring = names.length > 1 ? (clusterRadius * 1.2 * names.length) / Math.PI : 0;
  const positions = {};
  names.forEach((name, index) => {
    const angle = (2 * Math.PI * index) / names.length;
    const centre = { x: ring * Math.cos(angle), y: ring * Math.sin(angle) };
    const group = groups.get(name).sort((a, b) => b.size - a.size || a.id.localeCompare(b.id));
    group.forEach((paper, position) => {
      const radius = 40 * Math.sqrt(position);
      const turn = position * 2.39996;
      positions[paper.id] = { x: centre.x + radius * Math.cos(turn), y: centre.y + radius * Math.sin(turn) };
    });
  });
  return positions;
}

// Beyond this many links, edges are drawn as straight "haystack" lines:
// several times cheaper to draw than curves, though parallel links overlap.
const CURVED_LINKS = 600;

function corpusStyle(curved) {
  return [
    {
      selector: "node",
      style: {
        "background-color": "data(colour)",
        width: "data(diameter)",
        height: "data(diameter)",
        label: "data(label)",
        "font-size": 9,
        "text-valign": "bottom",
        "text-wrap": "ellipsis",
        "text-max-width": "110px",
        "text-background-color": "#FFFFFF",
        "text-background-opacity": 0.75,
        "min-zoomed-font-size": 7,
      },
    },
    {
      selector: "edge",
      style: {
        width: "data(width)",
        "line-color": "data(colour)",
        opacity: 0.65,
        "curve-style": curved ? "bezier" : "haystack",
        "control-point-step-size": 14,
      },
    },
    { selector: "edge[kind = 'citation']", style: curved ? { "target-arrow-shape": "triangle", "target-arrow-color": "data(colour)" } : {} },
    { selector: ":selected", style: { "overlay-color": "#000000", "overlay-opacity": 0.25, "overlay-padding": 5 } },
    { selector: ".filtered-out", style: { display: "none" } },
  ];
}

export class CorpusView {
  // elements: {container, kindList, categoryList, summary, more, papers, details};
  // actions: {openPaper(id), openHub(iri), openTerm(iri)}; onChange() after a redraw or filter.
  constructor(elements, actions, onChange) {
    this.elements = elements;
    this.actions = actions;
    this.onChange = onChange;
    this.cy = null;
    this.data = null;
    this.limit = FIRST_LIMIT;
    this.hiddenKinds = new Set();
    this.hiddenCategories = new Set();
    this.sharedSeq = 0;
    elements.more.addEventListener("click", () => this.showMore());
  }

  async load() {
    this.data = await fetchCorpus(this.limit);
    this.draw();
  }

  async showMore() {
    this.limit *= 4;
    await this.load();
    this.onChange();
  }

  draw() {
    const { papers, links } = this.data;
    const positions = clusterPositions(papers);
    const known = new Set(papers.map((paper) => paper.id));
    const elements = papers.map((paper) => ({
      group: "nodes",
      data: {
        id: paper.id,
        label: paperName(paper),
        colour: typeColour(paper.category || NO_CATEGORY),
        diameter: Math.min(10 + 1.2 * Math.sqrt(paper.size ?? 0), 64),
        info: paper,
      },
      position: positions[paper.id],
    }));
    links.filter((link) => known.has(link.source) && known.has(link.target)).forEach((link) => elements.push({
      group: "edges",
      data: {
        id: `${link.kind}|${link.source}|${link.target}`,
        source: link.source,
        target: link.target,
        kind: link.kind,
        colour: KIND_COLOURS[link.kind] ?? "#888888",
        width: Math.min(1 + 1.5 * Math.log2(link.count), 12),
        info: link,
      },
    }));
    if (this.cy) {
      this.cy.destroy();
    }
    this.cy = window.cytoscape({
      container: this.elements.container,
      elements,
      style: corpusStyle(links.length <= CURVED_LINKS),
      layout: { name: "preset", fit: true, padding: 30 },
      selectionType: "single",
      hideEdgesOnViewport: elements.length > 3000,
      textureOnViewport: elements.length > 1000,
      pixelRatio: elements.length > 1000 ? 1 : "auto",
    });
    this.cy.resize();
    this.cy.fit(undefined, 30);
    this.cy.on("tap", "node", (evt) => this.showPaper(evt.target.data("info")));
    this.cy.on("tap", "edge", (evt) => this.showLink(evt.target.data("info")));
    this.fillFilters();
    this.fillPaperList();
    this.apply();
  }

  fillFilters() {
    const { totals = {} } = this.data;
    const shownByKind = {};
    for (const link of this.data.links) {
      shownByKind[link.kind] = (shownByKind[link.kind] ?? 0) + 1;
    }
    this.elements.kindList.replaceChildren(...LINK_KINDS.map((kind) => this.checkbox(
      "kind", kind, `${KIND_TEXT[kind]}: ${shownByKind[kind] ?? 0} of ${totals[kind] ?? 0} links`, KIND_COLOURS[kind], this.hiddenKinds,
    )));
    const categories = new Map();
    for (const paper of this.data.papers) {
      const key = paper.category || NO_CATEGORY;
      categories.set(key, (categories.get(key) ?? 0) + 1);
    }
    this.elements.categoryList.replaceChildren(...[...categories.entries()].sort(([a], [b]) => a.localeCompare(b)).map(
      ([name, count]) => this.checkbox("category", name, `${name} (${plural(count, "paper")})`, typeColour(name), this.hiddenCategories),
    ));
    const more = LINK_KINDS.some((kind) => (shownByKind[kind] ?? 0) < (totals[kind] ?? 0));
    this.elements.more.hidden = !more;
  }

  checkbox(prefix, value, text, colour, hidden) {
    return toggleItem({
      id: `corpus-${prefix}-${value.replace(/[^A-Za-z0-9-]/g, "_")}`,
      value,
      hidden,
      onChange: () => this.apply(),
      text,
      swatchStyle: { backgroundColor: colour },
    });
  }

  apply() {
    if (!this.cy) {
      return;
    }
    this.cy.batch(() => {
      this.cy.nodes().forEach((node) => {
        node.toggleClass("filtered-out", this.hiddenCategories.has(node.data("info").category || NO_CATEGORY));
      });
      this.cy.edges().forEach((edge) => {
        const hidden = this.hiddenKinds.has(edge.data("kind")) || edge.source().hasClass("filtered-out")
          || edge.target().hasClass("filtered-out");
        edge.toggleClass("filtered-out", hidden);
      });
    });
    const counts = this.counts();
    this.elements.summary.textContent = `${plural(counts.papers, "paper")} and ${plural(counts.links, "link")} shown`;
    this.onChange();
  }

  counts() {
    if (!this.cy) {
      return { papers: 0, links: 0 };
    }
    // By class, not ":visible": reading visibility would restyle every element first.
    return { papers: this.cy.nodes().not(".filtered-out").length, links: this.cy.edges().not(".filtered-out").length };
  }

  visibleLinks() {
    return this.cy ? this.cy.edges().not(".filtered-out").map((edge) => ({ ...edge.data("info") })) : [];
  }

  renderedPosition(id) {
    const ele = this.cy?.getElementById(id);
    if (!ele || ele.length === 0) {
      return null;
    }
    return { ...(ele.isNode() ? ele.renderedPosition() : ele.renderedMidpoint()) };
  }

  fillPaperList() {
    const papers = [...this.data.papers].sort((a, b) => paperName(a).localeCompare(paperName(b)));
    this.elements.papers.replaceChildren(...papers.map((paper) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = paper.id;
      button.textContent = `${paperName(paper)}: ${paper.category || NO_CATEGORY}, ${plural(paper.size, "node")}`;
      button.addEventListener("click", () => this.actions.openPaper(paper.id));
      const item = document.createElement("li");
      item.append(button);
      return item;
    }));
  }

  paperTitle(id) {
    const paper = this.data?.papers.find((entry) => entry.id === id);
    return paper ? paperName(paper) : id;
  }

  showPaper(paper) {
    const body = this.elements.details;
    const title = document.createElement("h3");
    title.dataset.field = "title";
    title.textContent = paperName(paper);
    const facts = document.createElement("p");
    facts.dataset.field = "facts";
    facts.textContent = `${paper.id}; ${paper.category || NO_CATEGORY}; ${plural(paper.size, "node")}, ${plural(paper.edges ?? 0, "edge")}`;
    const open = document.createElement("button");
    open.type = "button";
    open.dataset.action = "open-paper";
    open.textContent = `Open paper ${paper.id}`;
    open.addEventListener("click", () => this.actions.openPaper(paper.id));
    body.replaceChildren(title, facts, open);
  }

  // A link's details: what the two papers meet at, each hub or term a button into its view.
  async showLink(link) {
    const seq = ++this.sharedSeq;
    const body = this.elements.details;
    const title = document.createElement("h3");
    title.dataset.field = "title";
    title.textContent = `${this.paperTitle(link.source)} and ${this.paperTitle(link.target)}: ${KIND_TEXT[link.kind]} ${link.count}`;
    body.replaceChildren(title);
    if (link.kind === "citation") {
      const line = document.createElement("p");
      line.textContent = `${link.source} cites ${link.target}.`;
      body.append(line);
      return;
    }
    let shared;
    try {
      shared = await fetchShared(link.source, link.target);
    } catch (err) {
      if (seq === this.sharedSeq) {
        const line = document.createElement("p");
        line.className = "error";
        line.textContent = `Could not list what they share: ${err.message}`;
        body.append(line);
      }
      return;
    }
    if (seq !== this.sharedSeq) {
      return;
    }
    const list = document.createElement("ul");
    list.className = "plain-list element-list";
    list.dataset.list = "shared";
    for (const entry of shared[link.kind] ?? []) {
      const item = document.createElement("li");
      if (link.kind === "shared-citation") {
        item.textContent = entry.label;
      } else {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.iri = entry.iri;
        button.textContent = `${link.kind === "hub" ? "CANON_ hub" : "Term"}: ${entry.label}`;
        button.addEventListener("click", () => (link.kind === "hub" ? this.actions.openHub(entry.iri) : this.actions.openTerm(entry.iri)));
        item.append(button);
      }
      list.append(item);
    }
    body.append(list);
  }
}
