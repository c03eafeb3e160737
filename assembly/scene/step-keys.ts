// A step's fields by index: the order of scene/names.ts STEP_KEYS and of scene/object-reader.ts's STEP rows,
// and the index of each field's value in scene/step.ts `slot`.

export const KEY_ID = 0;
export const KEY_TYPE = 1;
export const KEY_RUNNER = 2;
export const KEY_COLOR = 3;
export const KEY_COLOR_TO = 4;
export const KEY_COLOR_FROM = 5;
export const KEY_DURATION = 6;
export const KEY_LOOP = 7;
export const KEY_PINGPONG = 8;
export const KEY_PARAMS = 9;
export const KEY_ANIMATES = 10;
export const KEY_FROM = 11;
export const KEY_TO = 12;
export const KEY_AMOUNT = 13;
export const KEY_SOURCE = 14;
export const KEY_DIRECTIONALITY = 15;
export const KEY_ANGLE = 16;
export const KEY_REVERSE = 17;
export const KEY_WAVE_WIDTH = 18;
export const KEY_RIPPLE_WIDTH = 19;
export const KEY_WIDTH = 20;
export const KEY_COUNT = 21;
export const KEY_REPEAT = 22;
export const KEY_REPEAT_COUNT = 23;
export const KEY_WAVES = 24;
export const KEY_SPEED = 25;
export const KEY_LINES = 26;
export const KEY_THICKNESS = 27;
export const KEY_ORIGIN_PANEL = 28;

/** `source: "geometric"` (the legacy form of directionality) as a source's value in `slot`: its index
 * in scene/step.ts SOURCE_NAMES. */
export const SOURCE_GEOMETRIC = 4;
