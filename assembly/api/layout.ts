// GET /api/layout: the geometric layout (assembly/runner/layout.ts) read-only, so clients can draw
// the panels: centre, rotation, and whether it can be embedded. See docs/runners.md.
import * as w from "../json/writer";
import { rootAt, root } from "../topology/rooted";
import { config } from "../state/config";
import { updateLayout, layoutValid, layoutCount, layoutX, layoutY, layoutRotation, SIDE } from "../runner/layout";

export function getLayout(_req: u32, _param: string, _arg: u32): i32 {
  rootAt(config.logicalRoot);
  updateLayout();
  w.raw('{"embedded":');
  w.boolean(layoutValid());
  w.raw(',"side":');
  w.decimal(SIDE);
  w.raw(',"circumradius":1,"root":');
  w.int(layoutCount() > 0 ? root : 0);
  w.raw(',"panels":[');
  for (let i = 1; i <= layoutCount(); i++) {
    if (i > 1) w.byte(0x2c);
    w.raw('{"index":');
    w.int(i);
    w.raw(',"x":');
    w.decimal(layoutX(i));
    w.raw(',"y":');
    w.decimal(layoutY(i));
    w.raw(',"rotation":');
    w.int(layoutRotation(i));
    w.byte(0x7d);
  }
  w.raw("]}");
  return 0;
}
