// How the graph looks: node fill by type, node ring by role, edge width by
// confidence, and the marks for what repair added or removed. Colours come
// from the Okabe-Ito and Tol palettes, which stay apart for colour-blind
// readers; every colour also has a text label in the legend and details.

const TYPE_COLOURS = {
  Claim: "#0072B2",
  Evidence: "#009E73",
  Hypothesis: "#E69F00",
  Association: "#CC79A7",
  Factor: "#56B4E9",
  ResearchQuestion: "#F0E442",
  Variable: "#7F7F7F",
  StudyDesign: "#D55E00",
  StatisticalMethod: "#8C6D31",
  Viewpoint: "#6A3D9A",
};
const SPARE_TYPE_COLOURS = ["#1B9E77", "#A6761D", "#E7298A", "#66A61E", "#7570B3", "#B15928"];

const ROLE_COLOURS = {
  "deduction-rule": "#332288",
  "deduction-case": "#88CCEE",
  "induction-common": "#117733",
  "induction-case": "#999933",
  "abduction-phenomenon": "#882255",
  "abduction-knowledge": "#AA4499",
};
const SPARE_ROLE_COLOURS = ["#44AA99", "#DDCC77", "#CC6677", "#661100"];

export const HUB_COLOUR = "#222222";
const ADDED = "#1A9850";
const REMOVED = "#D73027";
const EDGE = "#8A8A8A";

// A name outside the tables gets a spare colour chosen by a hash of the name,
// so it keeps its colour from one paper or view to the next.
function spareColour(name, spare) {
  let hash = 0;
  for (const ch of name) {
    hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  }
  return spare[hash % spare.length];
}

export function typeColour(type) {
  return TYPE_COLOURS[type] ?? spareColour(type, SPARE_TYPE_COLOURS);
}

export function roleColour(role) {
  return ROLE_COLOURS[role] ?? spareColour(role, SPARE_ROLE_COLOURS);
}

// Edge width in pixels: 1 at confidence 0 up to 7 at confidence 1; an edge
// without a confidence is drawn thin and dashed.
export function edgeWidth(confidence) {
  return typeof confidence === "number" ? 1 + 6 * Math.min(Math.max(confidence, 0), 1) : 1.5;
}

export function stylesheet() {
  return [
    {
      selector: "node",
      style: {
        "background-color": "data(colour)",
        label: "data(label)",
        width: 22,
        height: 22,
        "border-width": 1,
        "border-color": "#FFFFFF",
        "font-size": 9,
        color: "#1B1B1B",
        "text-valign": "bottom",
        "text-margin-y": 3,
        "text-wrap": "ellipsis",
        "text-max-width": "120px",
        "text-background-color": "#FFFFFF",
        "text-background-opacity": 0.75,
        "min-zoomed-font-size": 6,
      },
    },
    { selector: "node[ring]", style: { "border-width": 4, "border-color": "data(ring)" } },
    {
      selector: "node.hub",
      style: { shape: "star", width: 42, height: 42, "background-color": HUB_COLOUR, "font-weight": "bold" },
    },
    {
      selector: "edge",
      style: {
        width: "data(width)",
        "line-color": EDGE,
        "target-arrow-color": EDGE,
        "target-arrow-shape": "triangle",
        "curve-style": "bezier",
        label: "data(label)",
        "font-size": 7,
        color: "#555555",
        "text-rotation": "autorotate",
        "min-zoomed-font-size": 6,
      },
    },
    // Document structure (sentence -> viewpoint, sentence -> reference): many
    // and obvious from the layout, so drawn as plain straight lines.
    {
      selector: 'edge[label = "states"], edge[label = "cites"], edge[label = "from-reference"]',
      style: { "curve-style": "haystack", "line-style": "solid", width: 1, opacity: 0.5, label: "" },
    },
    { selector: "edge[!scored]", style: { "line-style": "dashed" } },
    { selector: ".added", style: { "underlay-color": ADDED, "underlay-opacity": 0.45, "underlay-padding": 7 } },
    { selector: "edge.added", style: { "line-color": ADDED, "target-arrow-color": ADDED } },
    { selector: ".removed", style: { "underlay-color": REMOVED, "underlay-opacity": 0.45, "underlay-padding": 7 } },
    { selector: "node.removed", style: { "border-style": "dashed", "border-color": REMOVED, "border-width": 3 } },
    {
      selector: "edge.removed",
      style: { "line-color": REMOVED, "target-arrow-color": REMOVED, "line-style": "dashed" },
    },
    { selector: ":selected", style: { "overlay-color": "#000000", "overlay-opacity": 0.2, "overlay-padding": 6 } },
    { selector: ".filtered-out", style: { display: "none" } },
  ];
}
