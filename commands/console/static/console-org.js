// The organizer's results entry: as the table number is typed, say who sits there, from
// the round's tables in the form's data-tables attribute (JSON: no request, no inline
// script). The form works without it. A page that shows a refused entry (its table
// field marked data-select) states the error beside the field already: on load the
// preview then says nothing of a table the round lacks, and typing previews as always.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("entry");
  const table = document.getElementById("entry-table");
  const preview = document.getElementById("entry-preview");
  if (!form || !table || !preview) { return; }
  const tables = JSON.parse(form.dataset.tables || "[]");
  const show = (loaded) => {
    const found = tables.find((t) => String(t.table) === table.value.trim());
    if (!table.value.trim()) { preview.textContent = ""; return; }
    if (!found && loaded && table.hasAttribute("data-select")) { preview.textContent = ""; return; }
    if (!found) { preview.textContent = `No table ${table.value.trim()} in this round`; return; }
    const names = found.players.map((p) => `${p.name} (${p.id})`).join(" v ");
    preview.textContent = `Table ${found.table}: ${names} · ${found.state}`;
  };
  table.addEventListener("input", () => show(false));
  show(true);
});
