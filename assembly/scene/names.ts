// The scene format's fixed names as name lists (util/names.ts: packed UTF-8, compared against the
// tokenizer's bytes): each level's keys, in the order of their rows (scene/object-reader.ts), which is also
// the order of an unknown field's accepted list, and the names a value may be.
import { names } from "../util/names";

/** The keys of a step, a colour object, the scene, a layer and the base colours. */
export const STEP_KEYS = names(
  "id type runner color colorTo colorFrom duration loop pingpong params animates from to amount source directionality angle reverse waveWidth rippleWidth width count repeat repeatCount waves speed lines thickness originPanel group panels",
);
export const CHANNEL_KEYS = names("r g b palette useColor");
export const TOP_KEYS = names("schemaVersion name loop speed colors background palette layers id");
export const LAYER_KEYS = names("group sequence panels fallback blend startAfter async palette disabled");
export const COLOR_KEYS = names("primary secondary tertiary");

/** The names a value may be (object-reader.ts V_ENUM; the step types: generated/step-types.ts). */
export const RUNNERS = names("WAVE RIPPLE CHASE WHEEL BOUNCE RAIN SPARKLE MATRIX");
export const ANIMATES = names("color dim desaturate hue invert brighten saturate");
export const BLENDS = names("opaque add max multiply screen darken overlay difference subtract");
export const DIRECTIONS = names("topology geometric");
