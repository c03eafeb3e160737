// Every rule of the scene document, fed through POST /api/scenes as a violating document: the status
// and the start of the message (the JSON path, then the rule). Nothing may be stored by any of them.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { baseScene, type Scene } from "./helpers/scenes.js";
import { assertSchema, sceneBodySchema } from "./helpers/openapi.js";

const host = await startHost({ panels: 3 });
after(() => host.stop());

/** A one-layer scene of schemaVersion v with one step (merged with `step`). */
function mini(v: number, step: Scene = {}, layer: Scene = {}): Scene {
  return {
    schemaVersion: v,
    name: "mini",
    layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#FF0000", duration: 100, ...step }], ...layer }],
  };
}
/** A one-layer scene of schemaVersion 8 with one runner step (merged with `step`). */
function runner(name: string, step: Scene = {}): Scene {
  return mini(8, { type: undefined, runner: name, ...step });
}
function panels(sel: unknown): Scene {
  return mini(8, {}, { panels: sel });
}
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

type Case = [description: string, document: Scene | string, status: number, expected: string];

// In the base scene: layers[0] "ambient" (steps "in", "hold"), layers[1] "sweep" (WAVE, gap, RIPPLE),
// layers[2] "sparkle" (one infinite SPARKLE step).
function base(mutate: (s: Scene) => void): Scene {
  const s = baseScene();
  mutate(s);
  return s;
}
const step0 = (mutate: (step: Scene) => void) => base((s) => mutate(s.layers[0].sequence[0]));
const wave = (mutate: (step: Scene) => void) => base((s) => mutate(s.layers[1].sequence[0]));

const cases: Case[] = [
  // ---- top level
  ["root is an array", "[]", 422, "$: a scene must be a JSON object"],
  ["root is a string", '"scene"', 422, "$: a scene must be a JSON object"],
  ["schemaVersion 0", base((s) => (s.schemaVersion = 0)), 422, "schemaVersion: must be an integer 1-8"],
  ["schemaVersion negative", base((s) => (s.schemaVersion = -3)), 422, "schemaVersion: must be an integer 1-8"],
  ["schemaVersion fractional", base((s) => (s.schemaVersion = 2.5)), 422, "schemaVersion: must be an integer 1-8"],
  ["schemaVersion a string", base((s) => (s.schemaVersion = "8")), 422, "schemaVersion: must be an integer 1-8"],
  // a container is read past, not as the scene's own members (docs/decisions.md: it was answered 400)
  ["schemaVersion an array", base((s) => (s.schemaVersion = [8])), 422, "schemaVersion: must be an integer 1-8"],
  [
    "schemaVersion an object",
    base((s) => (s.schemaVersion = { name: "x" })),
    422,
    "schemaVersion: must be an integer 1-8",
  ],
  ["name missing", base((s) => delete s.name), 422, "name: required"],
  ["name empty", base((s) => (s.name = "")), 422, "name: must be 1-64 characters"],
  ["name of 65 characters", base((s) => (s.name = "n".repeat(65))), 422, "name: must be 1-64 characters"],
  ["name of 65 code points (emoji)", base((s) => (s.name = "😀".repeat(65))), 422, "name: must be 1-64 characters"],
  ["name with a C0 control", base((s) => (s.name = "a\u0007b")), 422, "name: must not contain control characters"],
  ["name with a C1 control", base((s) => (s.name = "a\u0085b")), 422, "name: must not contain control characters"],
  ["name with DEL", base((s) => (s.name = "a\u007fb")), 422, "name: must not contain control characters"],
  ["name a number", base((s) => (s.name = 5)), 422, "name: must be a string"],
  ["id in the body", base((s) => (s.id = "abcdefgh")), 422, "id: not allowed"],
  [
    "unknown top-level field",
    base((s) => (s.author = "me")),
    422,
    "author: unknown field (accepted: schemaVersion, name, loop, speed, colors, background, palette, layers)",
  ],
  ["loop not a boolean", base((s) => (s.loop = "yes")), 422, "loop: must be a boolean"],
  ["speed a string", base((s) => (s.speed = "fast")), 422, "speed: must be a number"],
  ["speed null", base((s) => (s.speed = null)), 422, "speed: must be a number"],
  ["colors not an object", base((s) => (s.colors = ["#FFFFFF"])), 422, "colors: must be an object"],
  ["colors.primary not a colour", base((s) => (s.colors.primary = "white")), 422, "colors.primary: must be a colour"],
  ["colors.tertiary short hex", base((s) => (s.colors.tertiary = "#FFF")), 422, "colors.tertiary: must be a colour"],
  [
    "colors unknown key",
    base((s) => (s.colors.quaternary = "#FFFFFF")),
    422,
    "colors.quaternary: unknown field (accepted: primary, secondary, tertiary)",
  ],
  ["background not a colour", base((s) => (s.background = "#GG0000")), 422, "background: must be a colour"],
  ["background an object colour", base((s) => (s.background = { r: 1 })), 422, "background: must be a colour"],
  ["palette empty", base((s) => (s.palette = "")), 422, "palette: must be a palette name of 1-30"],
  ["palette of 31 characters", base((s) => (s.palette = "p".repeat(31))), 422, "palette: must be a palette name"],
  ["palette a number", base((s) => (s.palette = 3)), 422, "palette: must be a string"],
  ["layers missing", base((s) => delete s.layers), 422, "layers: required"],
  ["layers empty", base((s) => (s.layers = [])), 422, "layers: must be an array of 1-8 layers"],
  ["layers an object", base((s) => (s.layers = {})), 422, "layers: must be an array of 1-8 layers"],
  [
    "nine layers",
    { name: "n", layers: range(9).map((g) => ({ group: g, sequence: [{ type: "SOLID", duration: 1 }] })) },
    422,
    "layers: must be an array of 1-8 layers",
  ],

  // ---- layers
  ["layer not an object", base((s) => (s.layers[1] = "sweep")), 422, "layers[1]: a layer must be an object"],
  [
    "layer unknown field",
    base((s) => (s.layers[0].opacity = 1)),
    422,
    "layers[0].opacity: unknown field (accepted: group, sequence, panels, fallback, blend, startAfter, async, palette, disabled)",
  ],
  ["group missing", base((s) => delete s.layers[2].group), 422, "layers[2].group: required"],
  ["group 0 reserved", mini(1, {}, { group: 0 }), 422, "layers[0].group: group 0 is reserved"],
  ["group 255", mini(1, {}, { group: 255 }), 422, "layers[0].group: must be a name, or an integer 1-254"],
  ["group negative", mini(1, {}, { group: -1 }), 422, "layers[0].group: must be a name, or an integer 1-254"],
  ["group fractional", mini(1, {}, { group: 1.5 }), 422, "layers[0].group: must be a name, or an integer 1-254"],
  ["group a boolean", mini(1, {}, { group: true }), 422, "layers[0].group: must be a name, or an integer 1-254"],
  [
    "duplicate group name",
    base((s) => (s.layers[2].group = "ambient")),
    422,
    'layers[2].group: group "ambient" is already used by layer 0',
  ],
  [
    "duplicate group number",
    { name: "d", layers: [3, 4, 3].map((g) => ({ group: g, sequence: [{ type: "SOLID", duration: 1 }] })) },
    422,
    "layers[2].group: group 3 is already used by layer 0",
  ],
  [
    "names and numbers mixed",
    base((s) => (s.layers[1].group = 7)),
    422,
    "layers[1].group: do not mix group names and numbers",
  ],
  [
    "named group in schemaVersion 1",
    mini(1, {}, { group: "a" }),
    422,
    "layers[0].group: named groups need schemaVersion 2",
  ],
  ["group name empty", mini(2, {}, { group: "" }), 422, "layers[0].group: a group name is 1-32 characters"],
  ["group name with a colon", mini(2, {}, { group: "a:b" }), 422, "layers[0].group: a group name is 1-32 characters"],
  ["group name of 33 characters", mini(2, {}, { group: "g".repeat(33) }), 422, "layers[0].group: a group name is 1-32"],
  ["group name with a control", mini(2, {}, { group: "a\tb" }), 422, "layers[0].group: a group name is 1-32"],
  [
    "blend unknown",
    base((s) => (s.layers[0].blend = "normal")),
    422,
    "layers[0].blend: must be one of opaque, add, max",
  ],
  ["blend in schemaVersion 3", mini(3, {}, { blend: "add" }), 422, "layers[0].blend: blend needs schemaVersion 4"],
  ["blend a number", base((s) => (s.layers[0].blend = 1)), 422, "layers[0].blend: must be a string"],
  ["sequence missing", base((s) => delete s.layers[1].sequence), 422, "layers[1].sequence: required"],
  [
    "sequence empty",
    base((s) => (s.layers[1].sequence = [])),
    422,
    "layers[1].sequence: must be an array of 1-12 steps",
  ],
  [
    "sequence of 13 steps",
    mini(1, {}, { sequence: range(13).map(() => ({ type: "SOLID", duration: 5 })) }),
    422,
    "layers[0].sequence: must be an array of 1-12 steps",
  ],
  [
    "async unknown string",
    base((s) => (s.layers[2].async = "sometimes")),
    422,
    'layers[2].async: must be a boolean, "loop" or "free"',
  ],
  ["async a number", base((s) => (s.layers[2].async = 1)), 422, "layers[2].async: must be a boolean"],
  [
    "layer palette too long",
    base((s) => (s.layers[0].palette = "x".repeat(31))),
    422,
    "layers[0].palette: must be a palette name",
  ],
  ["disabled not a boolean", base((s) => (s.layers[0].disabled = "no")), 422, "layers[0].disabled: must be a boolean"],

  // ---- startAfter
  [
    "startAfter in schemaVersion 1",
    mini(1, {}, { startAfter: 1 }),
    422,
    "layers[0].startAfter: startAfter needs schemaVersion 2",
  ],
  [
    "startAfter unknown group",
    base((s) => (s.layers[1].startAfter = "nope")),
    422,
    'layers[1].startAfter: no layer has group "nope"',
  ],
  [
    "startAfter itself",
    base((s) => (s.layers[1].startAfter = "sweep")),
    422,
    "layers[1].startAfter: a layer cannot start after itself",
  ],
  [
    "startAfter cycle of two",
    base((s) => (s.layers[0].startAfter = "sweep:x") && (s.layers[1].sequence[1].id = "x")),
    422,
    "layers[0].startAfter: startAfter forms a cycle",
  ],
  [
    "startAfter cycle of three",
    base((s) => {
      s.layers[1].startAfter = "sparkle";
      s.layers[2].sequence[0].duration = 100;
      s.layers[2].startAfter = "ambient";
      s.layers[0].startAfter = "sweep";
    }),
    422,
    "layers[0].startAfter: startAfter forms a cycle",
  ],
  [
    "startAfter awaiting an infinite sequence",
    base((s) => (s.layers[1].startAfter = "sparkle")),
    422,
    "layers[1].startAfter: the awaited sequence ends with an infinite step",
  ],
  [
    "startAfter awaiting an infinite step",
    base((s) => {
      s.layers[0].sequence[1].duration = 0;
      s.layers[1].startAfter = "ambient:hold";
    }),
    422,
    "layers[1].startAfter: the awaited step is infinite",
  ],
  [
    "startAfter group:stepId in schemaVersion 7",
    {
      schemaVersion: 7,
      name: "s",
      layers: [
        { group: "a", sequence: [{ type: "SOLID", duration: 5 }] },
        { group: "b", startAfter: "a:x", sequence: [{ type: "SOLID", duration: 5 }] },
      ],
    },
    422,
    "layers[1].startAfter: the group:stepId form needs schemaVersion 8",
  ],
  [
    "startAfter unknown step",
    base((s) => (s.layers[1].startAfter = "ambient:zz")),
    422,
    'layers[1].startAfter: layer "ambient" has no step with id "zz"',
  ],
  [
    "startAfter empty step",
    base((s) => (s.layers[1].startAfter = "ambient:")),
    422,
    "layers[1].startAfter: must be a group, or group:stepId",
  ],
  [
    "startAfter empty group",
    base((s) => (s.layers[1].startAfter = ":in")),
    422,
    "layers[1].startAfter: must be a group, or group:stepId",
  ],
  [
    "startAfter empty",
    base((s) => (s.layers[1].startAfter = "")),
    422,
    "layers[1].startAfter: must be a group, or group:stepId",
  ],
  [
    "startAfter a boolean",
    base((s) => (s.layers[1].startAfter = true)),
    422,
    "layers[1].startAfter: must be a group name or number",
  ],
  [
    "startAfter number 0",
    base((s) => (s.layers[1].startAfter = 0)),
    422,
    "layers[1].startAfter: must be a group name or number",
  ],
  [
    "startAfter a number with named groups",
    base((s) => (s.layers[1].startAfter = 1)),
    422,
    "layers[1].startAfter: no layer has group 1",
  ],
  [
    "startAfter an unknown group number",
    {
      schemaVersion: 2,
      name: "n",
      layers: [
        { group: 1, sequence: [{ type: "SOLID", duration: 5 }] },
        { group: 2, startAfter: 3, sequence: [{ type: "SOLID", duration: 5 }] },
      ],
    },
    422,
    "layers[1].startAfter: no layer has group 3",
  ],

  // ---- targeting (panels and fallback)
  ["panels unknown name", panels("everything"), 422, 'layers[0].panels: unknown selector "everything"'],
  ["panels a number", panels(5), 422, "layers[0].panels: must be a selector"],
  ["panels index 0", panels([0]), 422, "layers[0].panels[0]: must be a panel index"],
  ["panels index 255", panels([1, 255]), 422, "layers[0].panels[1]: must be a panel index"],
  ["panels index fractional", panels([1.5]), 422, "layers[0].panels[0]: must be a panel index"],
  ["panels index a string", panels(["1"]), 422, "layers[0].panels[0]: must be a panel index"],
  ["panels duplicate index", panels([3, 4, 3]), 422, "layers[0].panels[2]: panel 3 is listed twice"],
  ["panels 33 indices", panels(range(33)), 422, "layers[0].panels[32]: at most 32 explicit panel indices per layer"],
  // the scene-format spec's limit is per layer (issue 18): panels and fallback share it, in either order
  [
    "32 indices in panels and 1 in fallback",
    mini(8, {}, { panels: range(32), fallback: [100] }),
    422,
    "layers[0].fallback[0]: at most 32 explicit panel indices per layer",
  ],
  [
    "20 indices in fallback, then 13 in panels",
    mini(8, {}, { fallback: range(20, 100), panels: range(13) }),
    422,
    "layers[0].panels[12]: at most 32 explicit panel indices per layer",
  ],
  [
    "panels 33 indices over nested arrays",
    panels({ any: [range(20), range(13, 100)] }),
    422,
    "layers[0].panels.any[1][12]: at most 32",
  ],
  [
    "exclude not an array",
    panels({ exclude: "root" }),
    422,
    "layers[0].panels.exclude: must be an array of panel indices",
  ],
  ["exclude index 0", panels({ exclude: [2, 0] }), 422, "layers[0].panels.exclude[1]: must be a panel index"],
  ["any empty", panels({ any: [] }), 422, "layers[0].panels.any: must be an array of 1-8 selectors"],
  [
    "any of 9",
    panels({ any: range(9).map((i) => `first:${i}`) }),
    422,
    "layers[0].panels.any: must be an array of 1-8",
  ],
  ["all not an array", panels({ all: "leaves" }), 422, "layers[0].panels.all: must be an array of 1-8 selectors"],
  [
    "any with a bad member",
    panels({ any: ["leaves", "bogus"] }),
    422,
    'layers[0].panels.any[1]: unknown selector "bogus"',
  ],
  ["not of a number", panels({ not: 5 }), 422, "layers[0].panels.not: must be a selector"],
  [
    "selector object with two keys",
    panels({ any: ["root"], all: ["root"] }),
    422,
    "layers[0].panels: a selector object has exactly one",
  ],
  ["selector object unknown key", panels({ only: [1] }), 422, "layers[0].panels: a selector object has exactly one"],
  ["selector object empty", panels({}), 422, "layers[0].panels: a selector object has exactly one"],
  [
    "selectors nested too deep",
    panels({ not: { not: { not: { not: { not: "all" } } } } }),
    422,
    "layers[0].panels.not.not.not.not: selectors nest at most 4 deep",
  ],
  ["depth:A-B reversed", panels("depth:5-2"), 422, "layers[0].panels: must be depth:N or depth:A-B"],
  ["depth:x", panels("depth:x"), 422, "layers[0].panels: must be depth:N or depth:A-B"],
  ["depth:255", panels("depth:255"), 422, "layers[0].panels: must be depth:N"],
  ["depth: empty", panels("depth:"), 422, "layers[0].panels: must be depth:N"],
  ["depth:-1", panels("depth:-1"), 422, "layers[0].panels: must be depth:N"],
  ["subtree:0", panels("subtree:0"), 422, "layers[0].panels: must be subtree:N"],
  ["subtree:255", panels("subtree:255"), 422, "layers[0].panels: must be subtree:N"],
  ["neighbors:x", panels("neighbors:x"), 422, "layers[0].panels: must be neighbors:N"],
  ["first:0", panels("first:0"), 422, "layers[0].panels: must be first:K"],
  ["last: empty", panels("last:"), 422, "layers[0].panels: must be last:K"],
  [
    "fraction reversed",
    panels("fraction:0.5-0.2"),
    422,
    "layers[0].panels: must be fraction:A-B with 0 <= A <= B <= 1",
  ],
  ["fraction above 1", panels("fraction:0-1.5"), 422, "layers[0].panels: must be fraction:A-B"],
  ["fraction without B", panels("fraction:0.5"), 422, "layers[0].panels: must be fraction:A-B"],
  ["fraction malformed", panels("fraction:.5-1"), 422, "layers[0].panels: must be fraction:A-B"],
  ["selector case matters", panels("ALL"), 422, 'layers[0].panels: unknown selector "ALL"'],
  // a named form takes no colon, a prefixed one needs it (scene/targeting.ts splits at the first)
  ["a named form with a colon", panels("all:1"), 422, 'layers[0].panels: unknown selector "all:1"'],
  ["a named form with an empty colon", panels("root:"), 422, 'layers[0].panels: unknown selector "root:"'],
  ["a prefixed form without its colon", panels("depth"), 422, 'layers[0].panels: unknown selector "depth"'],
  ["a prefixed name run on", panels("first3"), 422, 'layers[0].panels: unknown selector "first3"'],
  ["a colon alone first", panels(":3"), 422, 'layers[0].panels: unknown selector ":3"'],
  ["a second colon", panels("last:1:2"), 422, "layers[0].panels: must be last:K with K 1-254"],
  // integers are 1-5 digits without a point, fraction bounds up to 12 characters
  ["first:1.0", panels("first:1.0"), 422, "layers[0].panels: must be first:K with K 1-254"],
  ["depth:1-2.5", panels("depth:1-2.5"), 422, "layers[0].panels: must be depth:N"],
  ["subtree: 6 digits", panels("subtree:000001"), 422, "layers[0].panels: must be subtree:N"],
  ["last:A-B", panels("last:1-2"), 422, "layers[0].panels: must be last:K"],
  ["fraction: a point last", panels("fraction:0-1."), 422, "layers[0].panels: must be fraction:A-B"],
  ["fraction: two points", panels("fraction:0-0.1.2"), 422, "layers[0].panels: must be fraction:A-B"],
  [
    "fallback invalid",
    base((s) => (s.layers[1].fallback = "nowhere")),
    422,
    'layers[1].fallback: unknown selector "nowhere"',
  ],
  ["fallback 33 indices", mini(8, {}, { fallback: range(33) }), 422, "layers[0].fallback[32]: at most 32"],

  // ---- steps: kinds
  [
    "step not an object",
    base((s) => (s.layers[0].sequence[1] = "SOLID")),
    422,
    "layers[0].sequence[1]: a step must be an object",
  ],
  [
    "step unknown field",
    step0((st) => (st.glow = 1)),
    422,
    "layers[0].sequence[0].glow: unknown field (accepted: id, type, runner, color, colorTo, colorFrom, duration, loop, pingpong, params, animates, from, to, amount, source, directionality, angle, reverse, waveWidth, rippleWidth, width, count, repeat, repeatCount, waves, speed, lines, thickness, originPanel)",
  ],
  [
    "type and runner",
    step0((st) => (st.runner = "WAVE")),
    422,
    "layers[0].sequence[0].runner: type and runner are mutually exclusive",
  ],
  ["unknown type", step0((st) => (st.type = "GLOW")), 422, "layers[0].sequence[0].type: unknown animation type"],
  ["type in lower case", step0((st) => (st.type = "fade")), 422, "layers[0].sequence[0].type: unknown animation type"],
  ["type a number", step0((st) => (st.type = 1)), 422, "layers[0].sequence[0].type: must be a string"],
  ["unknown runner", wave((st) => (st.runner = "SPIRAL")), 422, "layers[1].sequence[0].runner: unknown runner"],
  ["runner null", wave((st) => (st.runner = null)), 422, "layers[1].sequence[0].runner: must be a string"],
  [
    "WHEEL in schemaVersion 4",
    mini(4, { type: undefined, runner: "WHEEL" }),
    422,
    "layers[0].sequence[0].runner: WHEEL needs schemaVersion 5",
  ],
  [
    "BOUNCE in schemaVersion 6",
    mini(6, { type: undefined, runner: "BOUNCE" }),
    422,
    "layers[0].sequence[0].runner: BOUNCE needs schemaVersion 7",
  ],
  [
    "RAIN in schemaVersion 6",
    mini(6, { type: undefined, runner: "RAIN" }),
    422,
    "layers[0].sequence[0].runner: RAIN needs schemaVersion 7",
  ],
  [
    "SPARKLE in schemaVersion 6",
    mini(6, { type: undefined, runner: "SPARKLE" }),
    422,
    "layers[0].sequence[0].runner: SPARKLE needs schemaVersion 7",
  ],
  [
    "MATRIX in schemaVersion 6",
    mini(6, { type: undefined, runner: "MATRIX" }),
    422,
    "layers[0].sequence[0].runner: MATRIX needs schemaVersion 7",
  ],
  [
    "gap step in schemaVersion 1",
    { name: "g", layers: [{ group: 1, sequence: [{ duration: 100 }] }] },
    422,
    "layers[0].sequence[0]: a gap step needs schemaVersion 2",
  ],
  [
    "gap step with a colour",
    base((s) => (s.layers[1].sequence[1].color = "#FFFFFF")),
    422,
    "layers[1].sequence[1].color: a gap step (no type or runner) takes only id and duration",
  ],
  [
    "gap step with loop",
    base((s) => (s.layers[1].sequence[1].loop = true)),
    422,
    "layers[1].sequence[1].loop: a gap step",
  ],

  // ---- steps: duration and id
  ["duration missing", step0((st) => delete st.duration), 422, "layers[0].sequence[0].duration: required"],
  [
    "duration negative",
    step0((st) => (st.duration = -1)),
    422,
    "layers[0].sequence[0].duration: must be an integer 0-65535",
  ],
  [
    "duration 65536",
    step0((st) => (st.duration = 65536)),
    422,
    "layers[0].sequence[0].duration: must be an integer 0-65535",
  ],
  [
    "duration fractional",
    step0((st) => (st.duration = 100.5)),
    422,
    "layers[0].sequence[0].duration: must be an integer 0-65535",
  ],
  [
    "duration a string",
    step0((st) => (st.duration = "100")),
    422,
    "layers[0].sequence[0].duration: must be an integer 0-65535",
  ],
  [
    "duration 0 not last",
    step0((st) => (st.duration = 0)),
    422,
    "layers[0].sequence[0].duration: 0 (infinite) is only allowed on the last step",
  ],
  [
    "duration 0 on a gap not last",
    base((s) => (s.layers[1].sequence[1].duration = 0)),
    422,
    "layers[1].sequence[1].duration: 0 (infinite) is only allowed on the last step",
  ],
  [
    "step id in schemaVersion 7",
    mini(7, { id: "a" }),
    422,
    "layers[0].sequence[0].id: a step id needs schemaVersion 8",
  ],
  [
    "step id with a colon",
    step0((st) => (st.id = "a:b")),
    422,
    "layers[0].sequence[0].id: must be 1-32 characters of [a-zA-Z0-9_-]",
  ],
  ["step id empty", step0((st) => (st.id = "")), 422, "layers[0].sequence[0].id: must be 1-32 characters"],
  ["step id with a space", step0((st) => (st.id = "a b")), 422, "layers[0].sequence[0].id: must be 1-32 characters"],
  [
    "step id of 33 characters",
    step0((st) => (st.id = "i".repeat(33))),
    422,
    "layers[0].sequence[0].id: must be 1-32 characters",
  ],
  ["step id a number", step0((st) => (st.id = 1)), 422, "layers[0].sequence[0].id: must be a string"],
  [
    "step id duplicate",
    base((s) => (s.layers[0].sequence[1].id = "in")),
    422,
    'layers[0].sequence[1].id: step id "in" is already used by step 0',
  ],

  // ---- steps: colours
  ["colour a name", step0((st) => (st.colorTo = "red")), 422, "layers[0].sequence[0].colorTo: must be a colour"],
  ["colour short hex", step0((st) => (st.colorTo = "#12345")), 422, "layers[0].sequence[0].colorTo: must be a colour"],
  ["colour without #", step0((st) => (st.colorTo = "FF0000")), 422, "layers[0].sequence[0].colorTo: must be a colour"],
  [
    "colour a number",
    step0((st) => (st.colorFrom = 0xff0000)),
    422,
    "layers[0].sequence[0].colorFrom: must be a colour",
  ],
  [
    "colour an array",
    step0((st) => (st.colorFrom = [255, 0, 0])),
    422,
    "layers[0].sequence[0].colorFrom: must be a colour",
  ],
  [
    "colour channel 256",
    step0((st) => (st.colorTo = { r: 256 })),
    422,
    "layers[0].sequence[0].colorTo.r: must be an integer 0-255",
  ],
  [
    "colour channel negative",
    step0((st) => (st.colorTo = { g: -1 })),
    422,
    "layers[0].sequence[0].colorTo.g: must be an integer 0-255",
  ],
  [
    "colour channel a string",
    step0((st) => (st.colorTo = { b: "9" })),
    422,
    "layers[0].sequence[0].colorTo.b: must be an integer 0-255",
  ],
  [
    "colour forms mixed",
    step0((st) => (st.colorTo = { r: 1, palette: 2 })),
    422,
    "layers[0].sequence[0].colorTo: must be a colour",
  ],
  [
    "colour unknown key",
    step0((st) => (st.colorTo = { red: 1 })),
    422,
    "layers[0].sequence[0].colorTo: must be a colour",
  ],
  [
    "palette position 256",
    step0((st) => (st.colorTo = { palette: 256 })),
    422,
    "layers[0].sequence[0].colorTo.palette: must be an integer 0-255",
  ],
  [
    "useColor 3",
    step0((st) => (st.colorTo = { useColor: 3 })),
    422,
    "layers[0].sequence[0].colorTo.useColor: must be an integer 0-2",
  ],
  [
    "useColor with palette",
    step0((st) => (st.colorTo = { useColor: 1, palette: 3 })),
    422,
    "layers[0].sequence[0].colorTo: must be a colour",
  ],
  [
    "color and colorTo together",
    step0((st) => (st.color = "#FFFFFF")),
    422,
    "layers[0].sequence[0].color: color is an alias of colorTo",
  ],
  ["runner colour invalid", wave((st) => (st.color = "orange")), 422, "layers[1].sequence[0].color: must be a colour"],

  // ---- steps: panel-local fields
  [
    "loop on a runner",
    wave((st) => (st.loop = true)),
    422,
    "layers[1].sequence[0].loop: applies only to panel-local steps",
  ],
  [
    "pingpong on a runner",
    wave((st) => (st.pingpong = true)),
    422,
    "layers[1].sequence[0].pingpong: applies only to panel-local steps",
  ],
  [
    "from on a runner",
    wave((st) => (st.from = 1)),
    422,
    "layers[1].sequence[0].from: applies only to panel-local steps",
  ],
  ["to on a runner", wave((st) => (st.to = 1)), 422, "layers[1].sequence[0].to: applies only to panel-local steps"],
  ["step loop not a boolean", step0((st) => (st.loop = 1)), 422, "layers[0].sequence[0].loop: must be a boolean"],
  [
    "pingpong not a boolean",
    step0((st) => (st.pingpong = "true")),
    422,
    "layers[0].sequence[0].pingpong: must be a boolean",
  ],
  ["from 256", step0((st) => (st.from = 256)), 422, "layers[0].sequence[0].from: must be an integer 0-255"],
  ["to negative", step0((st) => (st.to = -1)), 422, "layers[0].sequence[0].to: must be an integer 0-255"],
  [
    "params not an array",
    step0((st) => (st.params = 5)),
    422,
    "layers[0].sequence[0].params: must be an array of 0-4 integers",
  ],
  [
    "params of 5",
    step0((st) => (st.params = [1, 2, 3, 4, 5])),
    422,
    "layers[0].sequence[0].params: must be an array of 0-4 integers",
  ],
  [
    "params entry 256",
    step0((st) => (st.params = [1, 256])),
    422,
    "layers[0].sequence[0].params[1]: must be an integer 0-255",
  ],
  [
    "params entry fractional",
    wave((st) => (st.params = [0.5])),
    422,
    "layers[1].sequence[0].params[0]: must be an integer 0-255",
  ],
  [
    "animates unknown",
    step0((st) => (st.animates = "glow")),
    422,
    "layers[0].sequence[0].animates: must be one of color, dim",
  ],
  [
    "animates dim in schemaVersion 3",
    mini(3, { animates: "dim" }),
    422,
    "layers[0].sequence[0].animates: animates dim needs schemaVersion 4",
  ],
  [
    "animates hue in schemaVersion 3",
    mini(3, { animates: "hue" }),
    422,
    "layers[0].sequence[0].animates: animates hue needs schemaVersion 4",
  ],
  [
    "animates brighten in schemaVersion 5",
    mini(5, { animates: "brighten" }),
    422,
    "layers[0].sequence[0].animates: animates brighten needs schemaVersion 6",
  ],
  [
    "animates saturate in schemaVersion 5",
    mini(5, { animates: "saturate" }),
    422,
    "layers[0].sequence[0].animates: animates saturate needs schemaVersion 6",
  ],
  [
    "HUE_CYCLE animating dim",
    step0((st) => (st.type = "HUE_CYCLE") && (st.animates = "dim")),
    422,
    'layers[0].sequence[0].animates: HUE_CYCLE animates only "color"',
  ],

  // ---- steps: runner fields
  [
    "amount on a type step",
    step0((st) => (st.amount = 1)),
    422,
    "layers[0].sequence[0].amount: applies only to runner steps",
  ],
  [
    "source on a type step",
    step0((st) => (st.source = "root")),
    422,
    "layers[0].sequence[0].source: applies only to runner steps",
  ],
  [
    "waveWidth on a type step",
    step0((st) => (st.waveWidth = 3)),
    422,
    "layers[0].sequence[0].waveWidth: applies only to runner steps",
  ],
  [
    "originPanel on a type step",
    step0((st) => (st.originPanel = 3)),
    422,
    "layers[0].sequence[0].originPanel: applies only to runner steps",
  ],
  ["amount 256", wave((st) => (st.amount = 256)), 422, "layers[1].sequence[0].amount: must be an integer 0-255"],
  [
    "source unknown",
    wave((st) => (st.source = "centre")),
    422,
    'layers[1].sequence[0].source: must be "root", "leaves", "all" or "panel:N"',
  ],
  ["source panel:0", wave((st) => (st.source = "panel:0")), 422, "layers[1].sequence[0].source: must be"],
  ["source panel:255", wave((st) => (st.source = "panel:255")), 422, "layers[1].sequence[0].source: must be"],
  ["source panel:x", wave((st) => (st.source = "panel:x")), 422, "layers[1].sequence[0].source: must be"],
  ["source a number", wave((st) => (st.source = 3)), 422, "layers[1].sequence[0].source: must be a string"],
  [
    "legacy source geometric in schemaVersion 2",
    mini(2, { type: undefined, runner: "WAVE", source: "geometric" }),
    422,
    'layers[0].sequence[0].source: source "geometric" needs schemaVersion 3',
  ],
  [
    "directionality unknown",
    wave((st) => (st.directionality = "radial")),
    422,
    'layers[1].sequence[0].directionality: must be "topology" or "geometric"',
  ],
  [
    "geometric in schemaVersion 2",
    mini(2, { type: undefined, runner: "WAVE", directionality: "geometric" }),
    422,
    "layers[0].sequence[0].directionality: geometric directionality needs schemaVersion 3",
  ],
  ["angle 360", wave((st) => (st.angle = 360)), 422, "layers[1].sequence[0].angle: must be an integer 0-359"],
  ["angle negative", wave((st) => (st.angle = -90)), 422, "layers[1].sequence[0].angle: must be an integer 0-359"],
  [
    "reverse not a boolean",
    wave((st) => (st.reverse = "yes")),
    422,
    "layers[1].sequence[0].reverse: must be a boolean",
  ],
  [
    "waveWidth 256",
    wave((st) => (st.waveWidth = 256)),
    422,
    "layers[1].sequence[0].waveWidth: must be an integer 0-255",
  ],
  [
    "rippleWidth negative",
    wave((st) => (st.rippleWidth = -1)),
    422,
    "layers[1].sequence[0].rippleWidth: must be an integer 0-255",
  ],
  ["width 1000", wave((st) => (st.width = 1000)), 422, "layers[1].sequence[0].width: must be an integer 0-255"],
  ["count 0", wave((st) => (st.count = 0)), 422, "layers[1].sequence[0].count: must be an integer 1-30"],
  ["count 31", wave((st) => (st.count = 31)), 422, "layers[1].sequence[0].count: must be an integer 1-30"],
  [
    "count on SPARKLE",
    base((s) => (s.layers[2].sequence[0].count = 2)),
    422,
    "layers[2].sequence[0].count: applies only to the WAVE, RIPPLE and CHASE runners",
  ],
  [
    "count on WHEEL",
    runner("WHEEL", { count: 2 }),
    422,
    "layers[0].sequence[0].count: applies only to the WAVE, RIPPLE and CHASE",
  ],
  [
    "repeat in schemaVersion 4",
    mini(4, { type: undefined, runner: "WAVE", repeat: true }),
    422,
    "layers[0].sequence[0].repeat: repeat needs schemaVersion 5",
  ],
  ["repeat not a boolean", wave((st) => (st.repeat = 1)), 422, "layers[1].sequence[0].repeat: must be a boolean"],
  [
    "repeat on RAIN",
    runner("RAIN", { repeat: true }),
    422,
    "layers[0].sequence[0].repeat: applies only to the WAVE, RIPPLE, CHASE and BOUNCE",
  ],
  [
    "repeatCount in schemaVersion 4",
    mini(4, { type: undefined, runner: "WAVE", repeatCount: 2 }),
    422,
    "layers[0].sequence[0].repeatCount: repeatCount needs schemaVersion 5",
  ],
  [
    "repeatCount 0",
    wave((st) => (st.repeatCount = 0)),
    422,
    "layers[1].sequence[0].repeatCount: must be an integer 1-255",
  ],
  [
    "repeatCount 256",
    wave((st) => (st.repeatCount = 256)),
    422,
    "layers[1].sequence[0].repeatCount: must be an integer 1-255",
  ],
  [
    "repeatCount on SPARKLE",
    runner("SPARKLE", { repeatCount: 2 }),
    422,
    "layers[0].sequence[0].repeatCount: applies only to",
  ],
  [
    "waves 0",
    base((s) => (s.layers[2].sequence[0].waves = 0)),
    422,
    "layers[2].sequence[0].waves: must be an integer 1-255",
  ],
  ["waves 256", runner("RAIN", { waves: 256 }), 422, "layers[0].sequence[0].waves: must be an integer 1-255"],
  [
    "waves on WAVE",
    wave((st) => (st.waves = 2)),
    422,
    "layers[1].sequence[0].waves: applies only to the RAIN, SPARKLE and MATRIX runners",
  ],
  [
    "speed on WAVE",
    wave((st) => (st.speed = 500)),
    422,
    "layers[1].sequence[0].speed: applies only to the RAIN, SPARKLE and MATRIX",
  ],
  [
    "speed negative on RAIN",
    runner("RAIN", { speed: -1 }),
    422,
    "layers[0].sequence[0].speed: must be an integer 0-65535",
  ],
  [
    "speed 65536 on MATRIX",
    runner("MATRIX", { speed: 65536 }),
    422,
    "layers[0].sequence[0].speed: must be an integer 0-65535",
  ],
  ["lines 0", runner("WHEEL", { lines: 0 }), 422, "layers[0].sequence[0].lines: must be an integer 1-6"],
  ["lines 7", runner("WHEEL", { lines: 7 }), 422, "layers[0].sequence[0].lines: must be an integer 1-6"],
  ["lines on WAVE", wave((st) => (st.lines = 2)), 422, "layers[1].sequence[0].lines: applies only to the WHEEL runner"],
  [
    "thickness 360",
    runner("WHEEL", { thickness: 360 }),
    422,
    "layers[0].sequence[0].thickness: must be an integer 0-359",
  ],
  [
    "thickness on CHASE",
    runner("CHASE", { thickness: 10 }),
    422,
    "layers[0].sequence[0].thickness: applies only to the WHEEL runner",
  ],
  [
    "originPanel 0",
    wave((st) => delete st.source && (st.originPanel = 0)),
    422,
    "layers[1].sequence[0].originPanel: must be an integer 1-254",
  ],
  [
    "originPanel 255",
    wave((st) => delete st.source && (st.originPanel = 255)),
    422,
    "layers[1].sequence[0].originPanel: must be an integer 1-254",
  ],
  [
    "originPanel with source",
    wave((st) => (st.originPanel = 2)),
    422,
    "layers[1].sequence[0].originPanel: conflicts with source",
  ],
  [
    "legacy geometric with topology",
    wave((st) => (st.source = "geometric") && (st.directionality = "topology")),
    422,
    'layers[1].sequence[0].source: "geometric" conflicts with directionality',
  ],
];

test("no rule case is duplicated", () => {
  const names = cases.map((c) => c[0]);
  assert.equal(new Set(names).size, names.length);
});

// The rules docs/schema/scene.schema.json cannot express (references between layers, uniqueness of
// groups and step ids, a count over two fields or nested arrays, nesting depth, A-B order, duration 0
// only last): the schema accepts these documents, the core does not. It rejects every other case.
const BEYOND_SCHEMA = new Set<string>([
  "duplicate group name",
  "duplicate group number",
  "startAfter unknown group",
  "startAfter itself",
  "startAfter cycle of two",
  "startAfter cycle of three",
  "startAfter awaiting an infinite sequence",
  "startAfter awaiting an infinite step",
  "startAfter unknown step",
  "startAfter an unknown group number",
  "32 indices in panels and 1 in fallback",
  "20 indices in fallback, then 13 in panels",
  "panels 33 indices over nested arrays",
  "selectors nested too deep",
  "depth:A-B reversed",
  "fraction reversed",
  "duration 0 not last",
  "duration 0 on a gap not last",
  "step id duplicate",
]);

for (const [description, document, status, expected] of cases) {
  test(`schema ${BEYOND_SCHEMA.has(description) ? "cannot reject" : "rejects"}: ${description}`, () => {
    const doc = typeof document === "string" ? JSON.parse(document) : JSON.parse(JSON.stringify(document));
    assertSchema(sceneBodySchema, doc, BEYOND_SCHEMA.has(description), description);
  });
  test(`rejects: ${description}`, async () => {
    const body = typeof document === "string" ? document : JSON.stringify(document);
    const res = await api(host, "POST", "/api/scenes", body);
    assert.equal(res.status, status, res.text);
    assert.ok(
      typeof res.body?.error === "string" && res.body.error.startsWith(expected),
      `expected "${expected}...", got ${res.text}`,
    );
  });
}

test("schemaVersion newer than 8 is 409 schema_too_new with both versions", async () => {
  for (const v of [9, 12, 1000]) {
    const res = await api(host, "POST", "/api/scenes", { ...baseScene(), schemaVersion: v, future: { x: 1 } });
    assert.equal(res.status, 409);
    assert.equal(res.text, `{"error":"schema_too_new","scene":${v},"firmware":8}`);
  }
});

test("none of the rejected documents was stored", async () => {
  const res = await api(host, "GET", "/api/scenes");
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, []);
});
