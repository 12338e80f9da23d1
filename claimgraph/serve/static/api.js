// Reading the viewer's JSON API (docs/viewer-api.md). Every URL is relative to
// the page, so the viewer works under whatever prefix the server mounts it at.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

function apiUrl(path, params) {
  const url = new URL(path, document.baseURI);
  for (const [key, value] of Object.entries(params ?? {})) {
    url.searchParams.set(key, value);
  }
  return url;
}

function parseJson(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

// GET a JSON object. A 4xx/5xx answer carries {"error": "..."}; its message
// becomes the ApiError's, so the user reads what the server said.
export async function getJson(path, params) {
  const url = apiUrl(path, params);
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" } });
  } catch (err) {
    throw new ApiError(`could not reach ${url.pathname} (${err.message})`, 0);
  }
  const body = parseJson(await response.text());
  if (!response.ok) {
    const said = body && typeof body.error === "string" ? body.error : response.statusText;
    throw new ApiError(`${said} (HTTP ${response.status})`, response.status);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(`${url.pathname} did not answer with a JSON object`, response.status);
  }
  return body;
}

function requireList(body, key, what) {
  if (!Array.isArray(body[key])) {
    throw new ApiError(`the ${what} answer has no "${key}" list`, 200);
  }
  return body[key];
}

export async function fetchPapers() {
  return requireList(await getJson("api/papers"), "papers", "api/papers");
}

export async function fetchHubs(query, limit) {
  return requireList(await getJson("api/hubs", { q: query, limit }), "hubs", "api/hubs");
}

function checkGraph(body, what) {
  requireList(body, "nodes", what);
  requireList(body, "edges", what);
  return body;
}

export async function fetchGraph(paper, view) {
  return checkGraph(await getJson("api/graph", { paper, view }), "api/graph");
}

export async function fetchHub(iri) {
  const body = checkGraph(await getJson("api/hub", { iri }), "api/hub");
  if (!body.hub || typeof body.hub.iri !== "string") {
    throw new ApiError('the api/hub answer has no "hub" object with an "iri"', 200);
  }
  return body;
}

export async function fetchCorpus(limit) {
  const body = await getJson("api/corpus", { limit });
  requireList(body, "papers", "api/corpus");
  requireList(body, "links", "api/corpus");
  return body;
}

export async function fetchShared(source, target) {
  const body = await getJson("api/shared", { source, target });
  if (!body.shared || typeof body.shared !== "object") {
    throw new ApiError('the api/shared answer has no "shared" object', 200);
  }
  return body.shared;
}

export async function fetchTerm(iri) {
  const body = checkGraph(await getJson("api/term", { iri }), "api/term");
  if (!body.term || typeof body.term.iri !== "string") {
    throw new ApiError('the api/term answer has no "term" object with an "iri"', 200);
  }
  return body;
}

export async function fetchQueries() {
  return requireList(await getJson("api/queries"), "queries", "api/queries");
}

// POST a query to the server's SPARQL protocol endpoint (/sparql, next to the
// viewer's folder). Solutions come back as SPARQL JSON, graphs as N-Triples.
export async function runSparql(query) {
  const url = new URL("../sparql", document.baseURI);
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/sparql-query",
        Accept: "application/sparql-results+json, application/n-triples;q=0.9",
      },
      body: query,
    });
  } catch (err) {
    throw new ApiError(`could not reach ${url.pathname} (${err.message})`, 0);
  }
  const text = await response.text();
  if (!response.ok) {
    const said = parseJson(text)?.error ?? (text.trim() || response.statusText);
    throw new ApiError(`${said} (HTTP ${response.status})`, response.status);
  }
  const type = response.headers.get("Content-Type") ?? "";
  return { type, text, hint: response.headers.get("X-Claimgraph-Hint") };
}
