// The document-structure layout: a paper's sentences down the left in their
// order, the viewpoints each states in a block beside it, the references it
// cites in a column on the right, and any other node in a grid below. It is
// computed in one pass (no force simulation), so a paper of a thousand
// viewpoints draws at once.

const VIEWPOINT_COLUMNS = 5;
const CELL_W = 150;
const CELL_H = 34;
const SENTENCE_GAP = 30;

function indexOf(node) {
  const match = /\((\d+),/.exec(node.data("info").anchor ?? "");
  return match ? Number(match[1]) : 0;
}

function byNumber(a, b) {
  const number = (node) => Number(/(\d+)$/.exec(node.data("info").label ?? "")?.[1] ?? 0);
  return indexOf(a) - indexOf(b) || number(a) - number(b);
}

// Sentence blocks go down in columns, as many as make the drawing about
// twice as wide as high (the shape of the pane), rather than one long strip.
export function structurePositions(cy) {
  const positions = {};
  const sentences = cy.nodes().filter((node) => node.data("info").type === "Sentence").sort(byNumber);
  const references = cy.nodes().filter((node) => node.data("info").type === "Reference");
  const blocks = sentences.map((sentence) => {
    const stated = sentence.outgoers("node").filter((node) => node.data("info").type !== "Reference").sort(byNumber);
    return { sentence, stated, height: Math.max(1, Math.ceil(stated.length / VIEWPOINT_COLUMNS)) * CELL_H + SENTENCE_GAP };
  });
  const blockWidth = 200 + VIEWPOINT_COLUMNS * CELL_W + 100;
  const total = blocks.reduce((sum, block) => sum + block.height, 0);
  const columns = Math.max(1, Math.round(Math.sqrt((2 * total) / blockWidth)));
  const columnHeight = total / columns;
  let [column, y, tallest] = [0, 0, 0];
  for (const { sentence, stated, height } of blocks) {
    if (positions[sentence.id()]) {
      continue;
    }
    if (y > 0 && y + height / 2 > columnHeight) {
      [column, y] = [column + 1, 0];
    }
    const left = column * blockWidth;
    positions[sentence.id()] = { x: left, y };
    stated.filter((node) => !positions[node.id()]).forEach((node, position) => {
      const row = Math.floor(position / VIEWPOINT_COLUMNS);
      positions[node.id()] = { x: left + 200 + (position % VIEWPOINT_COLUMNS) * CELL_W, y: y + row * CELL_H };
    });
    y += height;
    tallest = Math.max(tallest, y);
  }
  const right = (column + 1) * blockWidth + 100;
  const step = references.length > 1 ? Math.max(CELL_H, tallest / references.length) : CELL_H;
  references.sort((a, b) => byNumber(a, b)).forEach((reference, position) => {
    positions[reference.id()] = { x: right, y: position * step };
  });
  const rest = cy.nodes().filter((node) => !positions[node.id()]);
  rest.forEach((node, position) => {
    positions[node.id()] = { x: (position % 8) * CELL_W, y: tallest + 80 + Math.floor(position / 8) * CELL_H * 2 };
  });
  return positions;
}

export async function structureLayout(cy) {
  const layout = cy.layout({ name: "preset", positions: structurePositions(cy), fit: true, padding: 30 });
  const stopped = layout.promiseOn("layoutstop");
  layout.run();
  await stopped;
}
