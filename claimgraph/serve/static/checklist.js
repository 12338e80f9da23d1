// One checkbox of a legend list: checked while its value is not in the set of
// hidden values; toggling it updates that set and calls onChange. The swatch
// before the text shows the value's colour (a fill or a ring, by swatchClass).

export function toggleItem({ id, value, hidden, onChange, text, swatchClass = "swatch", swatchStyle = {} }) {
  const item = document.createElement("li");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = id;
  box.value = value;
  box.checked = !hidden.has(value);
  box.addEventListener("change", () => {
    if (box.checked) {
      hidden.delete(value);
    } else {
      hidden.add(value);
    }
    onChange();
  });
  const label = document.createElement("label");
  label.htmlFor = box.id;
  const swatch = document.createElement("span");
  swatch.className = swatchClass;
  swatch.setAttribute("aria-hidden", "true");
  Object.assign(swatch.style, swatchStyle);
  label.append(swatch, text);
  item.append(box, label);
  return item;
}
