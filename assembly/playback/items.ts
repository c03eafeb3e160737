// The compiled form's items (playback/compile.ts) by their tags, and the scene's part of its image
// that a scene pass writes as it reads (SAVE): apart from the compiler, so that the scene pass's
// field reader (scene/object-reader.ts) writes them without importing it.

// The items, each a tag and its bytes, in the order the document gives them (so a layer's palette
// applies at the scene's end, where the scene's own is known), then T_END and the image. Names are
// a length byte and UTF-8.
export const T_END: u8 = 0;
export const T_PALETTE: u8 = 5; // name
export const T_LAYER: u8 = 6; // the next layer's items follow, up to L_END
export const L_GROUP: u8 = 7; // group id, name (empty for a number or a name over 32 bytes)
export const L_PALETTE: u8 = 10; // name
export const L_PANELS: u8 = 11; // a selector (scene/targeting.ts); SEL_ALL when the layer gives none
export const L_FALLBACK: u8 = 12; // a selector
export const L_STEP: u8 = 14; // duration (u16), the record (kind in the top bits of its first byte; a
// runner's without its last 4 bytes, which its fields give), then a runner's fields (putRunner)
export const L_END: u8 = 15;

/** The part of the image SAVE holds: the speed, loop, base colours, background and the colours given
 * (compile.ts IMAGE). */
export const OWN: i32 = 40;
/** The scene's part of the image a scene pass writes (reset by beginImage, put by putImage). */
export const SAVE = memory.data(OWN, 8);
