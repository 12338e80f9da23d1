// The details panel: what one node or edge says and where it came from.
// Text from the API is only ever set as textContent, never parsed as HTML.

const MARK_TEXT = { added: "added by repair", removed: "removed by repair" };
// How canonicalization decided a link to a CANON_ hub (cg:linkBasis).
const BASIS_TEXT = {
  exactText: "exact text: the hub's own words",
  similarity: "similarity alone: a candidate, not checked by a judge",
  judged: "a judge said they state the same thing",
};

function addRow(list, label, field, value) {
  const term = document.createElement("dt");
  term.textContent = label;
  const description = document.createElement("dd");
  description.dataset.field = field;
  description.textContent = value;
  list.append(term, description);
}

function confidenceText(confidence) {
  return typeof confidence === "number" ? String(confidence) : "not scored";
}

function addProvenance(list, provenance) {
  const origin = provenance ?? {};
  const repairs = Array.isArray(origin.repairs) ? origin.repairs : [];
  addRow(list, "Produced by step", "step", origin.step || "unknown");
  addRow(list, "Model", "model", origin.model || "none recorded");
  addRow(list, "Repairs that touched it", "repairs", repairs.length > 0 ? repairs.join(", ") : "none");
}

function heading(text) {
  const title = document.createElement("h3");
  title.dataset.field = "title";
  title.textContent = text;
  return title;
}

function nodeRows(list, info) {
  addRow(list, "Text", "text", info.text || info.label || "");
  addRow(list, "Source sentence", "sentence", info.sentence || "not anchored to a sentence");
  addRow(list, "Anchor (x,y,z)", "anchor", info.anchor || "none");
  addRow(list, "Confidence", "confidence", confidenceText(info.confidence));
  if (Array.isArray(info.terms) && info.terms.length > 0) {
    addRow(list, "Ontology terms", "terms", info.terms.map((term) => `${term.label} (${term.match}, ${term.iri})`).join("; "));
  }
  addProvenance(list, info.provenance);
  if (info.paper) {
    addRow(list, "Paper", "paper", info.paper);
  }
}

function edgeRows(list, info, nameOf) {
  addRow(list, "From", "source", nameOf(info.source));
  addRow(list, "To", "target", nameOf(info.target));
  addRow(list, "Confidence", "confidence", confidenceText(info.confidence));
  if (info.basis) {
    addRow(list, "Link decided by", "basis", BASIS_TEXT[info.basis] || info.basis);
  }
  addProvenance(list, info.provenance);
}

// entry: {kind: "node"|"edge", info, paneTitle, mark: "added"|"removed"|null,
// nameOf(id) -> display text, openPaper(id) or null, actions: [{name, text, run}]}.
export function renderDetails(body, entry) {
  const { kind, info } = entry;
  const list = document.createElement("dl");
  let title;
  if (kind === "node") {
    title = entry.isHub ? `CANON_ hub (${info.type || "no type"})` : info.type || "Node without a type";
    if (info.role) {
      title += `, role ${info.role}`;
    }
    nodeRows(list, info);
  } else {
    title = `Edge: ${info.label || "(no label)"}`;
    edgeRows(list, info, entry.nameOf);
  }
  if (entry.mark) {
    addRow(list, "Repair diff", "mark", MARK_TEXT[entry.mark]);
  }
  addRow(list, "Shown in", "pane", entry.paneTitle);
  addRow(list, "IRI", "id", info.id);
  body.replaceChildren(heading(title), list);
  if (kind === "node" && info.paper && entry.openPaper) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Open paper ${info.paper}`;
    button.addEventListener("click", () => entry.openPaper(info.paper));
    body.append(button);
  }
  for (const action of entry.actions ?? []) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = action.name;
    button.textContent = action.text;
    button.addEventListener("click", action.run);
    body.append(button);
  }
}

export function renderHint(body, text) {
  const hint = document.createElement("p");
  hint.className = "hint";
  hint.textContent = text;
  body.replaceChildren(hint);
}
