// GET /api/layout: the geometric layout (assembly/runner/layout.ts) read-only, so clients can draw
// the panels: centre, rotation, and whether it can be embedded. See docs/runners.md. Written from
// two templates (assembly/text/layout.txt, layout-panel.txt; "side" is SIDE, 1.732).
import * as w from "../json/writer";
import { fillValues, VALUES, V_BOOL, V_INT, V_DECIMAL } from "../json/template";
import * as t from "../generated/text";
import { rootAt, root } from "../topology/rooted";
import { config } from "../state/config";
import { updateLayout, layoutValid, layoutCount, layoutX, layoutY, layoutRotation } from "../runner/layout";

// The templates' markers: embedded, root (the head); index, x, y, rotation (a panel).
// prettier-ignore
const ROWS = memory.data<u8>([V_BOOL, 0, V_INT, 8, V_DECIMAL, 16, V_DECIMAL, 24, V_INT, 32]);

export function getLayout(_req: u32, _param: string, _arg: u32): i32 {
  rootAt(config.logicalRoot);
  updateLayout();
  store<bool>(VALUES, layoutValid());
  store<i32>(VALUES, layoutCount() > 0 ? root : 0, 8);
  fillValues(t.LAYOUT, t.LAYOUT_LENGTH, ROWS);
  for (let i = 1; i <= layoutCount(); i++) {
    if (i > 1) w.byte(0x2c);
    store<i32>(VALUES, i, 8);
    store<f64>(VALUES, layoutX(i), 16);
    store<f64>(VALUES, layoutY(i), 24);
    store<i32>(VALUES, layoutRotation(i), 32);
    fillValues(t.LAYOUT_PANEL, t.LAYOUT_PANEL_LENGTH, ROWS);
  }
  w.raw("]}");
  return 0;
}
