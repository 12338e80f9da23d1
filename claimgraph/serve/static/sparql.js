// The SPARQL box: the shipped queries as examples, a query run on the
// server's /sparql endpoint, solutions as a table, a CONSTRUCT or DESCRIBE
// graph drawn, and a hint when a query that reads only the default graph
// finds nothing (papers live in named graphs).

import { fetchQueries, runSparql } from "./api.js";
import { GraphPane } from "./panes.js";

const MAX_TRIPLES = 2000;
const DEFAULT_GRAPH_HINT = "This query found nothing and reads only the default graph. claimgraph keeps each paper "
  + "in its own named graph: wrap the pattern in GRAPH ?g { ... } (or run the server with a union default graph).";

// True when the query names no graph: no GRAPH pattern, no FROM clause.
function readsOnlyDefaultGraph(query) {
  const code = query.replace(/#[^\n]*/g, " ").replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^<>\s]*>/g, " ");
  return !/\b(GRAPH|FROM)\b/i.test(code);
}

const TERM = String.raw`(<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(?:\^\^<[^>]*>|@[A-Za-z0-9-]+)?)`;
const TRIPLE = new RegExp(String.raw`^\s*${TERM}\s+${TERM}\s+${TERM}\s*\.\s*$`);

function unquote(term) {
  if (term.startsWith("<")) {
    return term.slice(1, -1);
  }
  if (term.startsWith("\"")) {
    const end = term.lastIndexOf("\"");
    return JSON.parse(term.slice(0, end + 1));
  }
  return term;
}

function localName(iri) {
  return iri.replace(/^.*[/#]/, "") || iri;
}

export function parseNTriples(text) {
  const triples = [];
  for (const line of text.split("\n")) {
    const match = TRIPLE.exec(line);
    if (match) {
      triples.push(match.slice(1, 4));
    }
  }
  return triples;
}

// N-Triples as a payload of the viewer API: each IRI, blank node or literal a node.
function graphPayload(triples) {
  const nodes = new Map();
  const edges = new Map();
  const nodeFor = (term) => {
    if (!nodes.has(term)) {
      const value = unquote(term);
      const literal = term.startsWith("\"");
      nodes.set(term, { id: term, label: literal ? value.slice(0, 40) : localName(value), type: literal ? "Literal" : "Resource",
        role: null, text: value, confidence: null, anchor: null, sentence: null, provenance: { step: null, model: null, repairs: [] } });
    }
    return term;
  };
  for (const [subject, predicate, object] of triples.slice(0, MAX_TRIPLES)) {
    const id = `${subject}|${predicate}|${object}`;
    edges.set(id, { id, source: nodeFor(subject), target: nodeFor(object), label: localName(unquote(predicate)), confidence: null,
      provenance: { step: null, model: null, repairs: [] } });
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

function cellText(binding) {
  if (!binding) {
    return "";
  }
  return binding.type === "literal" && binding["xml:lang"] ? `${binding.value}@${binding["xml:lang"]}` : binding.value;
}

export class SparqlBox {
  // elements: {examples, text, form, status, hint, table, graph, graphPane}
  constructor(elements, onDone) {
    this.elements = elements;
    this.onDone = onDone;
    this.pane = new GraphPane("sparql", elements.graph);
    this.queries = [];
    this.result = { kind: "none", rows: 0, triples: 0 };
    this.seq = 0;
    elements.examples.addEventListener("change", () => {
      const chosen = this.queries.find((query) => query.name === elements.examples.value);
      if (chosen) {
        elements.text.value = chosen.text;
        elements.status.textContent = chosen.description;
      }
    });
    elements.form.addEventListener("submit", (evt) => {
      evt.preventDefault();
      this.run(elements.text.value);
    });
  }

  async loadExamples() {
    if (this.queries.length) {
      return;
    }
    this.queries = await fetchQueries();
    this.elements.examples.replaceChildren(new Option("Choose a shipped query", ""),
      ...this.queries.map((query) => new Option(`${query.name}: ${query.description.slice(0, 80)}`, query.name)));
  }

  async run(query) {
    const seq = ++this.seq;
    const { status, hint, table } = this.elements;
    status.textContent = "Running…";
    hint.hidden = true;
    table.replaceChildren();
    this.elements.graphPane.hidden = true;
    this.pane.destroy();
    this.result = { kind: "running", rows: 0, triples: 0 };
    let answer;
    try {
      answer = await runSparql(query);
    } catch (err) {
      if (seq === this.seq) {
        status.textContent = `The query failed: ${err.message}`;
        this.result = { kind: "error", rows: 0, triples: 0, message: err.message };
        this.onDone();
      }
      return;
    }
    if (seq !== this.seq) {
      return;
    }
    let empty;
    if (answer.type.includes("n-triples")) {
      empty = await this.showGraph(parseNTriples(answer.text));
    } else {
      empty = this.showSolutions(JSON.parse(answer.text));
    }
    const advice = answer.hint || (empty && readsOnlyDefaultGraph(query) ? DEFAULT_GRAPH_HINT : "");
    hint.textContent = advice;
    hint.hidden = !advice;
    this.onDone();
  }

  showSolutions(body) {
    const { status, table } = this.elements;
    if (typeof body.boolean === "boolean") {
      status.textContent = `ASK answered ${body.boolean ? "yes" : "no"}.`;
      this.result = { kind: "boolean", rows: 0, triples: 0, value: body.boolean };
      return false;
    }
    const variables = body.head?.vars ?? [];
    const rows = body.results?.bindings ?? [];
    const head = document.createElement("tr");
    for (const name of variables) {
      const cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = `?${name}`;
      head.append(cell);
    }
    const lines = rows.map((row) => {
      const line = document.createElement("tr");
      for (const name of variables) {
        const cell = document.createElement("td");
        cell.textContent = cellText(row[name]);
        line.append(cell);
      }
      return line;
    });
    const thead = document.createElement("thead");
    thead.append(head);
    const tbody = document.createElement("tbody");
    tbody.append(...lines);
    table.replaceChildren(thead, tbody);
    status.textContent = `${rows.length} row${rows.length === 1 ? "" : "s"}.`;
    this.result = { kind: "solutions", rows: rows.length, triples: 0 };
    return rows.length === 0;
  }

  async showGraph(triples) {
    const { status } = this.elements;
    this.elements.graphPane.hidden = false;
    const payload = graphPayload(triples);
    await this.pane.show(payload);
    const cut = triples.length > MAX_TRIPLES ? ` (the first ${MAX_TRIPLES} drawn)` : "";
    status.textContent = `${triples.length} triple${triples.length === 1 ? "" : "s"}${cut}.`;
    this.result = { kind: "graph", rows: 0, triples: triples.length, nodes: payload.nodes.length, edges: payload.edges.length };
    return triples.length === 0;
  }
}
