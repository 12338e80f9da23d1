// The filter controls, which double as the legend: one checkbox per node type
// (with its fill colour) and per role (with its ring colour), and the minimum
// confidence slider. Each view has its own filters (a scope: papers, hubs and
// terms): what is hidden is remembered by name within the scope, so a type
// hidden in one paper stays hidden in the next paper, but never carries into
// a hub. describe() says what is hidden, for the "filters active" notice.

import { toggleItem } from "./checklist.js";
import { roleColour, typeColour } from "./graph-style.js";

const NO_VALUE = "";

function passesConfidence(confidence, minimum) {
  return typeof confidence !== "number" || confidence >= minimum;
}

function tally(infos, key) {
  const counts = new Map();
  for (const info of infos) {
    const value = info[key] || NO_VALUE;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export class Filters {
  // elements: {typeList, roleList, slider, output}; onChange() runs after any change.
  constructor(elements, onChange) {
    this.elements = elements;
    this.onChange = onChange;
    this.scopes = new Map();
    this.scope = null;
    this.useScope("paper");
    elements.slider.addEventListener("input", () => {
      this.minConfidence = Number(elements.slider.value);
      elements.output.textContent = this.minConfidence.toFixed(2);
      this.onChange();
    });
    elements.output.textContent = this.minConfidence.toFixed(2);
  }

  useScope(name) {
    if (!this.scopes.has(name)) {
      this.scopes.set(name, { hiddenTypes: new Set(), hiddenRoles: new Set(), minConfidence: 0 });
    }
    if (this.scope) {
      this.scopes.get(this.scope).minConfidence = this.minConfidence;
    }
    this.scope = name;
    const saved = this.scopes.get(name);
    this.hiddenTypes = saved.hiddenTypes;
    this.hiddenRoles = saved.hiddenRoles;
    this.minConfidence = saved.minConfidence;
    this.elements.slider.value = String(this.minConfidence);
    this.elements.output.textContent = this.minConfidence.toFixed(2);
  }

  // What this scope's filters hide, in words; "" when nothing is filtered.
  describe() {
    const parts = [];
    const named = (values, blank) => [...values].map((value) => value || blank).sort().join(", ");
    if (this.hiddenTypes.size) {
      parts.push(`types hidden: ${named(this.hiddenTypes, "(no type)")}`);
    }
    if (this.hiddenRoles.size) {
      parts.push(`roles hidden: ${named(this.hiddenRoles, "(no role)")}`);
    }
    if (this.minConfidence > 0) {
      parts.push(`confidence at least ${this.minConfidence.toFixed(2)}`);
    }
    return parts.join("; ");
  }

  reset() {
    this.hiddenTypes.clear();
    this.hiddenRoles.clear();
    this.minConfidence = 0;
    this.elements.slider.value = "0";
    this.elements.output.textContent = "0.00";
  }

  // Hub nodes are what a hub view is about, so no filter hides them. Nodes
  // and edges without a confidence are not judged by the slider.
  nodePasses(info, isHub) {
    if (isHub) {
      return true;
    }
    return !this.hiddenTypes.has(info.type || NO_VALUE)
      && !this.hiddenRoles.has(info.role || NO_VALUE)
      && passesConfidence(info.confidence, this.minConfidence);
  }

  edgePasses(info) {
    return passesConfidence(info.confidence, this.minConfidence);
  }

  // Rebuild both checkbox lists from the nodes on screen (hubs left out). The
  // role list offers the roles these nodes carry; with none it says so.
  showOptions(nodeInfos) {
    this.fillList(this.elements.typeList, tally(nodeInfos, "type"), this.hiddenTypes, {
      prefix: "type",
      colour: typeColour,
      blank: "(no type)",
      swatchClass: "swatch",
    });
    const roles = tally(nodeInfos, "role");
    const real = roles.filter(([value]) => value !== NO_VALUE || this.hiddenRoles.has(NO_VALUE));
    this.fillList(this.elements.roleList, roles.length > 1 || real.length ? roles : [], this.hiddenRoles, {
      prefix: "role",
      colour: roleColour,
      blank: "(no role)",
      swatchClass: "swatch swatch-ring",
    });
  }

  fillList(list, entries, hidden, { prefix, colour, blank, swatchClass }) {
    list.replaceChildren();
    entries.forEach(([value, count], index) => {
      const prop = prefix === "role" ? "borderColor" : "backgroundColor";
      list.append(toggleItem({
        id: `${prefix}-option-${index}`,
        value,
        hidden,
        onChange: () => this.onChange(),
        text: `${value || blank} (${count})`,
        swatchClass,
        swatchStyle: value !== NO_VALUE ? { [prop]: colour(value) } : {},
      }));
    });
    if (entries.length === 0) {
      const item = document.createElement("li");
      item.textContent = prefix === "role" ? "no node of this graph has a reasoning role" : "none in this graph";
      list.append(item);
    }
  }
}
