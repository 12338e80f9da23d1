// One graph pane: a Cytoscape instance drawing one payload of the JSON API,
// with force-directed (cose) or preset layout, filtering by class, repair
// marks, and pointer events handed to the page.

import { edgeWidth, roleColour, stylesheet, typeColour } from "./graph-style.js";

const FORCE_LAYOUT = {
  name: "cose",
  animate: false,
  randomize: true,
  fit: true,
  padding: 30,
  nodeRepulsion: () => 9000,
  idealEdgeLength: () => 70,
};

// Force layouts cost O(n²) per iteration: large graphs get fewer iterations.
const FULL_ITERATION_NODES = 300;
const ALONE_CELL = 90;
const LARGE_GRAPH = 2000; // elements // grid cell, in model pixels, of a node without edges

function forceIterations(nodes) {
  return nodes <= FULL_ITERATION_NODES ? 1000 : Math.max(150, Math.round((1000 * FULL_ITERATION_NODES) / nodes));
}

async function runLayout(eles, options) {
  const layout = eles.layout(options);
  const stopped = layout.promiseOn("layoutstop");
  layout.run();
  await stopped;
}

// Nodes with edges get the force layout; nodes without any (an ARCHE paper has
// thousands of viewpoints and no edges) go on a grid below them, where a force
// layout would spend minutes pushing them apart.
async function forceLayout(cy) {
  cy.resize();
  const alone = cy.nodes().filter((node) => node.degree(false) === 0);
  const linked = cy.elements().difference(alone);
  let box = { x1: 0, y2: -80, w: 0 };
  if (linked.nonempty()) {
    await runLayout(linked, { ...FORCE_LAYOUT, fit: false, numIter: forceIterations(linked.nodes().length) });
    box = linked.boundingBox();
  }
  if (alone.nonempty()) {
    const columns = Math.ceil(Math.sqrt(alone.length * 1.6));
    const rows = Math.ceil(alone.length / columns);
    const area = { x1: box.x1, y1: box.y2 + 80, w: Math.max(box.w, columns * ALONE_CELL * 1.6), h: rows * ALONE_CELL };
    await runLayout(alone, { name: "grid", fit: false, boundingBox: area, avoidOverlap: true, cols: columns });
  }
  cy.resize();
  cy.fit(undefined, 30);
}

function nodeElement(node, hubIri) {
  const data = {
    id: node.id,
    label: node.label || node.text || node.id,
    colour: typeColour(node.type || "?"),
    info: node,
  };
  if (node.role) {
    data.ring = roleColour(node.role);
  }
  return { group: "nodes", data, classes: node.id === hubIri ? "hub" : "" };
}

function edgeElement(edge) {
  const scored = typeof edge.confidence === "number";
  return {
    group: "edges",
    data: {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      label: edge.label || "",
      width: edgeWidth(edge.confidence),
      scored,
      info: edge,
    },
  };
}

// Turn a payload into Cytoscape elements. Malformed entries (no id, a repeated
// id, an edge whose end is not a node) are skipped and described, since
// Cytoscape would otherwise refuse the whole graph.
export function toElements(payload, hubIri) {
  const elements = [];
  const skipped = [];
  const ids = new Set();
  for (const node of payload.nodes) {
    if (!node || typeof node.id !== "string" || ids.has(node.id)) {
      skipped.push(`node ${JSON.stringify(node && node.id)} (missing or repeated id)`);
      continue;
    }
    ids.add(node.id);
    elements.push(nodeElement(node, hubIri));
  }
  const nodeIds = new Set(ids);
  for (const edge of payload.edges) {
    if (!edge || typeof edge.id !== "string" || ids.has(edge.id)) {
      skipped.push(`edge ${JSON.stringify(edge && edge.id)} (missing or repeated id)`);
    } else if (!nodeIds.has(edge.source) || !nodeIds.has(edge.target)) {
      skipped.push(`edge ${edge.id} (an end is not a node of this graph)`);
    } else {
      ids.add(edge.id);
      elements.push(edgeElement(edge));
    }
  }
  return { elements, skipped };
}

// Positions for a preset layout: known ones are kept; a node without one goes
// next to the mean of its placed neighbours, or on a spiral round the origin.
function placeNodes(cy, known) {
  const placed = {};
  let loose = 0;
  cy.nodes().forEach((node) => {
    const id = node.id();
    if (known.has(id)) {
      placed[id] = known.get(id);
      return;
    }
    const near = node.neighborhood("node").filter((other) => known.has(other.id()));
    if (near.length > 0) {
      const sum = near.reduce((acc, other) => {
        const p = known.get(other.id());
        return { x: acc.x + p.x, y: acc.y + p.y };
      }, { x: 0, y: 0 });
      placed[id] = { x: sum.x / near.length + 30, y: sum.y / near.length + 30 };
    } else {
      loose += 1;
      placed[id] = { x: 40 * loose * Math.cos(loose), y: 40 * loose * Math.sin(loose) };
    }
  });
  return placed;
}

export class GraphPane {
  constructor(name, container) {
    this.name = name;
    this.container = container;
    this.cy = null;
  }

  // Draw a payload; resolves once the layout has stopped. listener(kind, ele)
  // hears "hover", "leave", "pick" (tap on an element) and "unpick".
  async show(payload, { hubIri = null, positions = null, layout = null, listener = () => {} } = {}) {
    this.destroy();
    const { elements, skipped } = toElements(payload, hubIri);
    this.cy = window.cytoscape({
      container: this.container,
      elements,
      style: stylesheet(),
      layout: { name: "preset" },
      selectionType: "single",
      // Large graphs pan and zoom as a picture, redrawn when the motion stops.
      textureOnViewport: elements.length > LARGE_GRAPH,
      pixelRatio: elements.length > LARGE_GRAPH ? 1 : "auto",
    });
    this.cy.on("mouseover", "node, edge", (evt) => listener("hover", evt.target));
    this.cy.on("mouseout", "node, edge", (evt) => listener("leave", evt.target));
    this.cy.on("tap", (evt) => listener(evt.target === this.cy ? "unpick" : "pick", evt.target));
    // A container shown a moment ago may still carry the size Cytoscape read
    // while it was hidden (0 x 0); fitting to that draws the graph tiny in a corner.
    this.cy.resize();
    if (positions) {
      await runLayout(this.cy.elements(), { name: "preset", positions: placeNodes(this.cy, positions), fit: true, padding: 30 });
    } else if (layout) {
      await layout(this.cy);
    } else {
      await forceLayout(this.cy);
    }
    return skipped;
  }

  destroy() {
    if (this.cy) {
      this.cy.destroy();
      this.cy = null;
    }
    this.focus = null;
    this.focusCentre = null;
  }

  // Keep only the nodes within `hops` steps of node `id` (null: all nodes);
  // applyFilter draws it.
  focusOn(id, hops) {
    if (!this.cy || id === null) {
      this.focus = null;
      this.focusCentre = null;
      return;
    }
    let reach = this.cy.getElementById(id);
    for (let step = 0; step < hops; step += 1) {
      reach = reach.closedNeighborhood();
    }
    this.focus = new Set(reach.nodes().map((node) => node.id()));
    this.focusCentre = { id, hops };
  }

  fitVisible() {
    if (this.cy) {
      this.cy.resize();
      this.cy.fit(this.cy.elements(":visible"), 30);
    }
  }

  // Mark the nodes whose label or text contains `query` (case-insensitive);
  // returns the visible matches, best first (label matches, then by label).
  search(query) {
    if (!this.cy) {
      return [];
    }
    const needle = query.trim().toLocaleLowerCase();
    const found = [];
    this.cy.batch(() => {
      this.cy.nodes().forEach((node) => {
        const info = node.data("info");
        const hit = needle !== "" && `${info.label ?? ""} ${info.text ?? ""}`.toLocaleLowerCase().includes(needle);
        node.toggleClass("match", hit);
        if (hit) {
          found.push(node);
        }
      });
    });
    return found.filter((node) => node.visible()).sort((a, b) => String(a.data("label")).localeCompare(String(b.data("label"))));
  }

  // The drawn graph's box and the pane's size, in CSS pixels: a fitted graph fills one of the pane's sides.
  renderedExtent() {
    if (!this.cy) {
      return null;
    }
    const box = this.cy.elements().renderedBoundingBox();
    return { w: box.w, h: box.h, paneWidth: this.container.clientWidth, paneHeight: this.container.clientHeight };
  }

  centre(id) {
    const ele = this.element(id);
    if (ele) {
      this.cy.animate({ center: { eles: ele }, zoom: Math.max(this.cy.zoom(), 1.2) }, { duration: 0 });
    }
  }

  // filter.nodePasses(info, isHub) and filter.edgePasses(info) decide, and a
  // neighbourhood focus (focusOn) keeps only the nodes it names; an edge is
  // also hidden when either of its ends is.
  applyFilter(filter) {
    if (!this.cy) {
      return;
    }
    this.cy.batch(() => {
      const shown = new Set();
      this.cy.nodes().forEach((node) => {
        const inFocus = !this.focus || this.focus.has(node.id());
        const pass = inFocus && filter.nodePasses(node.data("info"), node.hasClass("hub"));
        node.toggleClass("filtered-out", !pass);
        if (pass) {
          shown.add(node.id());
        }
      });
      this.cy.edges().forEach((edge) => {
        const pass = shown.has(edge.data("source")) && shown.has(edge.data("target"))
          && filter.edgePasses(edge.data("info"));
        edge.toggleClass("filtered-out", !pass);
      });
    });
    // Cytoscape applies class changes to the style lazily and caches
    // visible(); reading a style property applies them now, so ":visible"
    // answers for the filter just set rather than the previous one.
    this.cy.elements().forEach((ele) => ele.style("display"));
  }

  counts() {
    if (!this.cy) {
      return { nodes: 0, edges: 0 };
    }
    return { nodes: this.cy.nodes(":visible").length, edges: this.cy.edges(":visible").length };
  }

  visibleNodes() {
    return this.cy ? this.cy.nodes(":visible").map((node) => node.data("info")) : [];
  }

  allNodes() {
    return this.cy ? this.cy.nodes().map((node) => node.data("info")) : [];
  }

  ids() {
    return this.cy ? new Set(this.cy.elements().map((ele) => ele.id())) : new Set();
  }

  positions() {
    const known = new Map();
    if (this.cy) {
      this.cy.nodes().forEach((node) => known.set(node.id(), { ...node.position() }));
    }
    return known;
  }

  mark(ids, className) {
    if (!this.cy) {
      return;
    }
    this.cy.batch(() => {
      for (const id of ids) {
        this.cy.getElementById(id).addClass(className);
      }
    });
  }

  marked(className) {
    return this.cy ? this.cy.elements(`.${className}`).map((ele) => ele.id()).sort() : [];
  }

  element(id) {
    if (!this.cy) {
      return null;
    }
    const ele = this.cy.getElementById(id);
    return ele.length > 0 ? ele : null;
  }

  select(id) {
    if (!this.cy) {
      return;
    }
    this.cy.elements(":selected").unselect();
    const ele = this.element(id);
    if (ele) {
      ele.select();
    }
  }

  // Where a node is drawn, in CSS pixels from the container's top-left corner.
  // A node's centre, or an edge's midpoint, in pixels of the pane.
  renderedPosition(id) {
    const ele = this.element(id);
    if (!ele) {
      return null;
    }
    return { ...(ele.isNode() ? ele.renderedPosition() : ele.renderedMidpoint()) };
  }
}

// Pan and zoom the two panes together, so a node sits at the same place in both.
export function linkViewports(first, second) {
  let syncing = false;
  const follow = (from, to) => () => {
    if (syncing || !from.cy || !to.cy) {
      return;
    }
    syncing = true;
    to.cy.viewport({ zoom: from.cy.zoom(), pan: { ...from.cy.pan() } });
    syncing = false;
  };
  first.cy.on("viewport", follow(first, second));
  second.cy.on("viewport", follow(second, first));
}
